/** Sent on every answer: no inline script or style, nothing from elsewhere, never framed. */
export const securityHeaders = {
  "content-security-policy":
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
  "x-content-type-options": "nosniff",
  // Not no-referrer: under it browsers send `Origin: null` on form posts, and the Origin check needs the origin.
  "referrer-policy": "same-origin",
  "x-frame-options": "DENY",
  "cross-origin-opener-policy": "same-origin",
} as const;
