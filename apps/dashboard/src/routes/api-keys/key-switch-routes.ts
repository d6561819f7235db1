import { AdminRefusal } from "@hub/admin";
import {
  type DashboardContext,
  type DashboardFastify,
  formOf,
  requireRole,
  seeOther,
} from "../../http/dashboard-context.js";
import { sendMemberPage } from "../../http/send-member-page.js";
import { keySwitchConfirmBody, revokeConfirmBody } from "../../pages/api-keys-page.js";
import { ownKey, sendKeysPage } from "./organization-keys.js";

/** Revoke, disable and enable a key, each after a confirmation page. */
export function registerKeySwitchRoutes(app: DashboardFastify, context: DashboardContext): void {
  app.post("/keys/revoke", async (request, reply) => {
    const viewer = requireRole(request, reply, "member");
    if (!viewer) return reply;
    const form = formOf(request);
    const key = await ownKey(context, viewer, form.keyId);
    if (!key) return sendKeysPage(context, reply, viewer, undefined, 404);
    if (form.confirmed !== "1")
      return sendMemberPage(context, reply, viewer, {
        title: "Revoke key",
        current: "/keys",
        body: revokeConfirmBody(key),
      });
    await context.adminFor(viewer).revokeKey({ keyId: key.keyId, orgId: viewer.orgId });
    return seeOther(reply, "/keys");
  });

  for (const disable of [true, false]) {
    app.post(disable ? "/keys/disable" : "/keys/enable", async (request, reply) => {
      const viewer = requireRole(request, reply, "member");
      if (!viewer) return reply;
      const form = formOf(request);
      const key = await ownKey(context, viewer, form.keyId);
      if (!key) return sendKeysPage(context, reply, viewer, undefined, 404);
      if (form.confirmed !== "1")
        return sendMemberPage(context, reply, viewer, {
          title: disable ? "Disable key" : "Enable key",
          current: "/keys",
          body: keySwitchConfirmBody(key, disable),
        });
      try {
        await context
          .adminFor(viewer)
          .setKeyDisabled({ keyId: key.keyId, disabled: disable, orgId: viewer.orgId });
      } catch (error) {
        // Revoked meanwhile: the list shows it so.
        if (!(error instanceof AdminRefusal) || error.code !== "key-revoked") throw error;
      }
      return seeOther(reply, "/keys");
    });
  }
}
