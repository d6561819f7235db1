import { AdminRefusal } from "./admin-refusal.js";

const SHAPE = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/]+\/?$/;

/**
 * An allowed origin is exact, as a browser sends it in the Origin header: `scheme://host[:port]`,
 * scheme http or https, host lowercased (IDN as punycode), default port dropped. A single trailing
 * slash is tolerated and dropped; any path, query, fragment, credentials or wildcard is refused.
 */
export function normaliseOrigin(input: string): string {
  const refuse = (why: string): never => {
    throw new AdminRefusal("invalid-origin", `invalid origin ${JSON.stringify(input)}: ${why}`);
  };
  if (input.length === 0) refuse("it is empty");
  if (input.length > 2048) refuse("it is longer than 2048 characters");
  if (/\s/.test(input)) refuse("it contains whitespace");
  if (input.includes("*")) refuse("wildcards are not allowed; list each origin exactly");
  if (input.includes("\\")) refuse("it contains a backslash");
  if (input.includes("@")) refuse("credentials (user@) are not allowed");
  if (input.includes("?") || input.includes("#")) refuse("a query or fragment is not allowed");
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):\/\//.exec(input)?.[1]?.toLowerCase();
  if (scheme === undefined) refuse("write it as scheme://host[:port], e.g. https://app.example.com");
  if (scheme !== "http" && scheme !== "https") refuse(`the scheme must be http or https, not ${scheme}`);
  if (!SHAPE.test(input)) refuse("a path is not allowed; an origin is scheme://host[:port] only");
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    return refuse("the host or port is not valid");
  }
  if (url.hostname === "") refuse("the host is missing");
  if (url.port === "0") refuse("port 0 is not valid");
  return url.origin;
}
