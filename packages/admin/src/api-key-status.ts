export type ApiKeyStatus = "active" | "revoked" | "expired";

/** Whether a key admits calls at `now`: a revoked key is revoked even when it has also expired. */
export function apiKeyStatus(
  key: { expiresAt: Date | null; revokedAt: Date | null },
  now: Date,
): ApiKeyStatus {
  if (key.revokedAt !== null && key.revokedAt.getTime() <= now.getTime()) return "revoked";
  if (key.expiresAt !== null && key.expiresAt.getTime() <= now.getTime()) return "expired";
  return "active";
}
