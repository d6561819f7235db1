import type { SqlClient } from "../sql-client.js";
import type { AccessStore } from "./access-records.js";
import type { ApiKeyRow } from "./access-rows.js";

/** What the gateway asks of keys: the key behind a hash, and when keys were last used. */
export function accessKeyLookupQueries(sql: SqlClient): Pick<AccessStore, "findKeyByHash" | "markKeysUsed"> {
  return {
    async findKeyByHash(keyHash) {
      const [row] = await sql.query<Pick<ApiKeyRow, "id" | "org_id" | "expires_at" | "revoked_at">>(
        // A disabled key, and a disabled organization's keys, read as revoked at the moment of the disable.
        `SELECT k.id, k.org_id, k.expires_at, coalesce(k.revoked_at, k.disabled_at, o.disabled_at) AS revoked_at
         FROM api_keys k JOIN organizations o ON o.id = k.org_id WHERE k.key_hash = $1`,
        [keyHash],
      );
      return row
        ? { keyId: row.id, orgId: row.org_id, expiresAt: row.expires_at, revokedAt: row.revoked_at }
        : undefined;
    },

    async markKeysUsed(keyIds, at) {
      if (keyIds.length === 0) return;
      await sql.query(
        `UPDATE api_keys SET last_used_at = $2
         WHERE id = ANY ($1::text[]) AND (last_used_at IS NULL OR last_used_at < $2)`,
        [keyIds, at.toISOString()],
      );
    },
  };
}
