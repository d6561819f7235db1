import { API_PREFIX } from "@hub/contract";

/** True for a /v1 call, which the gateway's own handler answers. */
export function isApiUrl(url: string): boolean {
  return url.startsWith(`${API_PREFIX}/`) || url === API_PREFIX || url.startsWith(`${API_PREFIX}?`);
}
