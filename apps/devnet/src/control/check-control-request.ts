/** Why the control API refuses a request before any route sees it; undefined when it may proceed. */
export type ControlRefusal =
  | { status: 403; error: "HOST_NOT_ALLOWED" | "ORIGIN_NOT_ALLOWED"; message: string }
  | { status: 415; error: "UNSUPPORTED_MEDIA_TYPE"; message: string };

const LOOPBACK_HOSTS = ["127.0.0.1", "localhost", "[::1]"];

function mediaTypeOf(contentType: string | undefined): string | undefined {
  return contentType?.split(";")[0]?.trim().toLowerCase();
}

/**
 * The control API drives the devnet, so only a local tool may call it: `Host` must name a loopback
 * host with the listener's own port (a DNS rebinding page sends its own name), an `Origin` must be that
 * same address (a page elsewhere is cross-origin), and a POST must say `application/json`, which a page
 * cannot send cross-origin without a pre-flight the devnet never grants.
 */
export function checkControlRequest(request: {
  method: string;
  host: string | undefined;
  origin: string | undefined;
  contentType: string | undefined;
  localPort: number | undefined;
}): ControlRefusal | undefined {
  const allowedHosts = LOOPBACK_HOSTS.map((host) => `${host}:${request.localPort}`);
  if (request.host === undefined || !allowedHosts.includes(request.host.toLowerCase())) {
    return {
      status: 403,
      error: "HOST_NOT_ALLOWED",
      message: `Host must be one of ${allowedHosts.join(", ")}`,
    };
  }
  if (request.origin !== undefined && !allowedHosts.some((host) => request.origin === `http://${host}`)) {
    return {
      status: 403,
      error: "ORIGIN_NOT_ALLOWED",
      message: "the control API takes no cross-origin calls",
    };
  }
  if (request.method === "POST" && mediaTypeOf(request.contentType) !== "application/json") {
    return {
      status: 415,
      error: "UNSUPPORTED_MEDIA_TYPE",
      message: "a POST carries a JSON body (send {} for none)",
    };
  }
  return undefined;
}
