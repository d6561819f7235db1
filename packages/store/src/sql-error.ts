/** True when a database error is a unique-constraint violation (SQLSTATE 23505), optionally of one constraint. */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  if (typeof error !== "object" || error === null) return false;
  const { code, constraint: name } = error as { code?: unknown; constraint?: unknown };
  return code === "23505" && (constraint === undefined || name === constraint);
}

// Socket errors of a server that is down or went away, and the SQLSTATEs of a server shutting down,
// starting up or out of connections (class 08: connection exception).
const UNREACHABLE_SOCKET_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
]);
const UNREACHABLE_SQLSTATES = new Set(["57P01", "57P02", "57P03", "53300"]);

/**
 * True when a database error says the server cannot be reached right now (stopped, restarting, the
 * connection dropped), not that the statement was wrong: the caller may answer "retry later".
 */
export function isStoreUnreachable(error: unknown): boolean {
  if (typeof error !== "object" || error === null) return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof code === "string") {
    if (UNREACHABLE_SOCKET_CODES.has(code) || UNREACHABLE_SQLSTATES.has(code) || code.startsWith("08"))
      return true;
  }
  return typeof message === "string" && message.startsWith("Connection terminated");
}
