const HIDDEN = "***";

/** A path segment that reads as a key: 16 or more of letters, digits, `-` and `_`, with a letter and a digit, not a 0x hex id. */
function looksLikeKey(segment: string): boolean {
  return (
    segment.length >= 16 &&
    /^[A-Za-z0-9_-]+$/.test(segment) &&
    /[A-Za-z]/.test(segment) &&
    /[0-9]/.test(segment) &&
    !/^0x[0-9a-fA-F]+$/.test(segment)
  );
}

/**
 * A URL as it may be logged or shown: the user name and password, every query value and every path
 * segment that reads as a key (Alchemy's and Infura's `/v2/<key>`, `/v3/<key>`) become `***`; scheme,
 * host, port, the other path segments and the query names stay. Text that is not a URL is hidden whole.
 */
export function redactUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return HIDDEN;
  }
  const userinfo = parsed.username || parsed.password ? `${HIDDEN}@` : "";
  const path = parsed.pathname
    .split("/")
    .map((segment) => (looksLikeKey(decodeURIComponentSafely(segment)) ? HIDDEN : segment))
    .join("/");
  const query = parsed.search
    ? `?${[...parsed.searchParams.keys()].map((name) => `${encodeURIComponent(name)}=${HIDDEN}`).join("&")}`
    : "";
  // A non-special scheme (redis:, postgres:) keeps an opaque host; host is empty only for forms like mailto:.
  const authority = parsed.host ? `//${userinfo}${parsed.host}` : "";
  return `${parsed.protocol}${authority}${path}${query}${parsed.hash ? `#${HIDDEN}` : ""}`;
}

function decodeURIComponentSafely(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

const URL_IN_TEXT = /\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>`]+/gi;

/** Every URL with a scheme and `//` inside free text (an error message, a log line) passed through redactUrl. */
export function redactUrlsInText(text: string): string {
  if (!text.includes("://")) return text;
  return text.replace(URL_IN_TEXT, (match) => {
    // Punctuation that ends a sentence is not part of the URL.
    const url = match.replace(/[.,;:!?)\]]+$/, "");
    return `${redactUrl(url)}${match.slice(url.length)}`;
  });
}
