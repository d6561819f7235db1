import { accessDevelopmentQueries } from "./access/access-development-queries.js";
import { accessKeyLookupQueries } from "./access/access-key-lookup-queries.js";
import { accessKeyQueries } from "./access/access-key-queries.js";
import { accessOrganizationQueries } from "./access/access-organization-queries.js";
import { accessProjectOriginQueries } from "./access/access-project-origin-queries.js";
import { accessProjectQueries } from "./access/access-project-queries.js";
import type { AccessStore } from "./access/access-records.js";
import type { SqlClient } from "./sql-client.js";

export * from "./access/access-records.js";

/** Organizations, projects with their allowed origins, and API keys (stored as SHA-256 only). */
export function createAccessStore(sql: SqlClient): AccessStore {
  return {
    ...accessOrganizationQueries(sql),
    ...accessProjectQueries(sql),
    ...accessProjectOriginQueries(sql),
    ...accessKeyQueries(sql),
    ...accessKeyLookupQueries(sql),
    ...accessDevelopmentQueries(sql),
  };
}
