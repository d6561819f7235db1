import { generateProjectId, hashApiKey, isApiKeyFormat } from "@hub/contract";
import type { AccessAdminDeps, DevelopmentAccess } from "../access-admin.js";
import { apiKeyStatus } from "../api-key-status.js";
import { normaliseOrigin } from "../normalise-origin.js";
import { newResourceId } from "../resource-id.js";
import { createKey } from "./api-keys.js";

const DEVELOPMENT_ORGANIZATION_NAME = "Development";

export async function ensureDevelopmentAccess(
  deps: AccessAdminDeps,
  { allowedOrigin, previousKey }: { allowedOrigin: string; previousKey?: string },
): Promise<DevelopmentAccess> {
  const { store, clock } = deps;
  const origin = normaliseOrigin(allowedOrigin);
  let access = await store.findDevelopmentAccess();
  if (!access) {
    access = await store.claimDevelopmentAccess({
      orgId: newResourceId("org_"),
      name: DEVELOPMENT_ORGANIZATION_NAME,
      projectId: generateProjectId(),
      origins: [origin],
      at: new Date(clock.now()),
    });
  }
  await store.addProjectOrigin(access.projectId, origin);
  if (previousKey !== undefined && isApiKeyFormat(previousKey)) {
    const found = await store.findKeyByHash(hashApiKey(previousKey));
    if (found && found.orgId === access.orgId && apiKeyStatus(found, new Date(clock.now())) === "active") {
      return {
        orgId: access.orgId,
        projectId: access.projectId,
        allowedOrigin: origin,
        keyId: found.keyId,
        apiKey: previousKey,
        keyCreated: false,
      };
    }
  }
  const { apiKey } = await createKey(deps, { orgId: access.orgId });
  return {
    orgId: access.orgId,
    projectId: access.projectId,
    allowedOrigin: origin,
    keyId: apiKey.keyId,
    apiKey: apiKey.key,
    keyCreated: true,
  };
}
