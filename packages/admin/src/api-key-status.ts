export type ApiKeyStatus = "active" | "disabled" | "revoked" | "expired";

/**
 * Whether a key admits calls at `now`: a revoked key is revoked even when it has also expired, and an
 * expired key stays expired when it is also disabled (enabling it would not make it work).
 */
export function apiKeyStatus(
  key: { expiresAt: Date | null; revokedAt: Date | null; disabledAt?: Date | null },
  now: Date,
): ApiKeyStatus {
  if (key.revokedAt !== null && key.revokedAt.getTime() <= now.getTime()) return "revoked";
  if (key.expiresAt !== null && key.expiresAt.getTime() <= now.getTime()) return "expired";
  if ((key.disabledAt ?? null) !== null) return "disabled";
  return "active";
}
