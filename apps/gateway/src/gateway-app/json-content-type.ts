export const JSON_CONTENT_TYPE = "application/json; charset=utf-8";
