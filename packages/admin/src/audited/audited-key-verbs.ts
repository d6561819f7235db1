import { apiKeyDisplayPrefix } from "@hub/contract";
import type { AccessAdmin } from "../access-admin.js";
import type { AdminActionRecorder } from "../admin-action-recorder.js";

type KeyVerbs = Pick<AccessAdmin, "createKey" | "revokeKey" | "setKeyDisabled" | "ensureDevelopmentAccess">;

/** The key verbs, each recorded once it changed something. */
export function auditedKeyVerbs(access: AccessAdmin, record: AdminActionRecorder): KeyVerbs {
  return {
    async createKey(input) {
      const result = await access.createKey(input);
      const { keyId, orgId, displayPrefix, expiresAt, label } = result.apiKey;
      await record({
        action: "key.create",
        orgId,
        target: keyId,
        detail: { label, displayPrefix, expiresAt },
      });
      return result;
    },

    async revokeKey(input) {
      const result = await access.revokeKey(input);
      const { keyId, orgId, displayPrefix } = result.apiKey;
      await record({ action: "key.revoke", orgId, target: keyId, detail: { displayPrefix } });
      return result;
    },

    async setKeyDisabled(input) {
      const result = await access.setKeyDisabled(input);
      const { keyId, orgId, displayPrefix, label } = result.apiKey;
      if (result.changed) {
        await record({
          action: input.disabled ? "key.disable" : "key.enable",
          orgId,
          target: keyId,
          detail: { label, displayPrefix },
        });
      }
      return result;
    },

    async ensureDevelopmentAccess(input) {
      const result = await access.ensureDevelopmentAccess(input);
      if (result.keyCreated) {
        await record({
          action: "development-access.create-key",
          orgId: result.orgId,
          target: result.keyId,
          detail: { displayPrefix: apiKeyDisplayPrefix(result.apiKey), projectId: result.projectId },
        });
      }
      return result;
    },
  };
}
