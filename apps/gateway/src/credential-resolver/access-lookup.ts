/** What the gateway needs of the access store (@hub/store's AccessStore has these three). */
export interface AccessLookup {
  findKeyByHash(
    keyHash: string,
  ): Promise<{ keyId: string; orgId: string; expiresAt: Date | null; revokedAt: Date | null } | undefined>;
  findProjectByPublicId(
    projectId: string,
  ): Promise<{ projectId: string; orgId: string; allowedOrigins: readonly string[] } | undefined>;
  markKeysUsed(keyIds: readonly string[], at: Date): Promise<void>;
}
