/** The host (and port) of a URL, never its path, query or credentials: safe for logs and labels. */
export function redactRpcUrl(url: string): string {
  try {
    return new URL(url).host || "invalid-url";
  } catch {
    return "invalid-url";
  }
}
