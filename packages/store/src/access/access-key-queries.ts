import type { SqlClient } from "../sql-client.js";
import type { AccessStore } from "./access-records.js";
import { type ApiKeyRow, KEY_COLUMNS, toApiKey } from "./access-rows.js";

/** The API keys, stored as SHA-256 only: issued, revoked, disabled, read and listed. */
export function accessKeyQueries(
  sql: SqlClient,
): Pick<AccessStore, "insertApiKey" | "revokeApiKey" | "setApiKeyDisabled" | "getApiKey" | "listApiKeys"> {
  return {
    async insertApiKey({ keyId, orgId, label, keyHash, displayPrefix, createdAt, expiresAt }) {
      const [row] = await sql.query<ApiKeyRow>(
        `INSERT INTO api_keys (id, org_id, key_hash, display_prefix, created_at, expires_at, label)
         SELECT $1, id, $3, $4, $5, $6, $7 FROM organizations WHERE id = $2
         RETURNING ${KEY_COLUMNS}`,
        [
          keyId,
          orgId,
          keyHash,
          displayPrefix,
          createdAt.toISOString(),
          expiresAt?.toISOString() ?? null,
          label ?? null,
        ],
      );
      return row ? toApiKey(row) : undefined;
    },

    async revokeApiKey(keyId, at) {
      const [row] = await sql.query<ApiKeyRow>(
        `UPDATE api_keys SET revoked_at = coalesce(revoked_at, $2) WHERE id = $1 RETURNING ${KEY_COLUMNS}`,
        [keyId, at.toISOString()],
      );
      return row ? toApiKey(row) : undefined;
    },

    async setApiKeyDisabled(keyId, at) {
      const [row] = await sql.query<ApiKeyRow>(
        `UPDATE api_keys SET disabled_at = CASE WHEN $2::timestamptz IS NULL THEN NULL ELSE coalesce(disabled_at, $2) END
         WHERE id = $1 RETURNING ${KEY_COLUMNS}`,
        [keyId, at?.toISOString() ?? null],
      );
      return row ? toApiKey(row) : undefined;
    },

    async getApiKey(keyId) {
      const [row] = await sql.query<ApiKeyRow>(`SELECT ${KEY_COLUMNS} FROM api_keys WHERE id = $1`, [keyId]);
      return row ? toApiKey(row) : undefined;
    },

    async listApiKeys(orgId) {
      const rows = await sql.query<ApiKeyRow>(
        `SELECT ${KEY_COLUMNS} FROM api_keys WHERE org_id = $1 ORDER BY created_at, id`,
        [orgId],
      );
      return rows.map(toApiKey);
    },
  };
}
