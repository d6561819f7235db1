import {
  type DashboardContext,
  type DashboardFastify,
  formOf,
  keepOnce,
  requireRole,
  seeOther,
} from "../../http/dashboard-context.js";
import { sendMemberPage } from "../../http/send-member-page.js";
import { keyName, type NewKeyMessage, rotateKeyBody } from "../../pages/api-keys-page.js";
import { createKeyFromForm, readKeyForm } from "./key-form.js";
import { ownKey, sendKeysPage } from "./organization-keys.js";

/** Rotate key: a new key made in the old one's stead (the old one stays until revoked). */
export function registerRotateKeyRoutes(app: DashboardFastify, context: DashboardContext): void {
  const rotatePage = { title: "Rotate key", current: "/keys" };

  app.get("/keys/rotate", async (request, reply) => {
    const viewer = requireRole(request, reply, "member");
    if (!viewer) return reply;
    const key = await ownKey(context, viewer, (request.query as Record<string, string>).keyId);
    if (key?.status !== "active") return seeOther(reply, "/keys");
    return sendMemberPage(context, reply, viewer, { ...rotatePage, body: rotateKeyBody({ key }) });
  });

  app.post("/keys/rotate", async (request, reply) => {
    const viewer = requireRole(request, reply, "member");
    if (!viewer) return reply;
    const form = formOf(request);
    const old = await ownKey(context, viewer, form.keyId);
    if (!old) return sendKeysPage(context, reply, viewer, undefined, 404);
    const { values, errors, expiresInSeconds } = readKeyForm(form);
    if (errors.label || errors.expires) {
      const body = rotateKeyBody({ key: old, values, errors });
      return sendMemberPage(context, reply, viewer, { ...rotatePage, body }, 400);
    }
    const made = await createKeyFromForm(context, viewer, values.label, expiresInSeconds);
    if ("error" in made) {
      const body = rotateKeyBody({ key: old, values, errors: { label: made.error } });
      return sendMemberPage(context, reply, viewer, { ...rotatePage, body }, 400);
    }
    const message: NewKeyMessage = {
      kind: "new-key",
      key: made.apiKey.key,
      label: made.apiKey.label ?? "",
      rotatedFrom: { keyId: old.keyId, label: keyName(old) },
    };
    keepOnce(context, reply, viewer, message);
    return seeOther(reply, "/keys");
  });
}
