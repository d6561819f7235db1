import {
  type DashboardContext,
  type DashboardFastify,
  formOf,
  keepOnce,
  requireRole,
  seeOther,
  takeOnce,
} from "../../http/dashboard-context.js";
import { sendMemberPage } from "../../http/send-member-page.js";
import { type NewKeyMessage, newKeyBody } from "../../pages/api-keys-page.js";
import { createKeyFromForm, readKeyForm } from "./key-form.js";
import { sendKeysPage } from "./organization-keys.js";

/** The API keys page and its Create key form; the new key's plaintext is shown once, on the list. */
export function registerApiKeysRoutes(app: DashboardFastify, context: DashboardContext): void {
  const createPage = { title: "Create key", current: "/keys" };

  app.get("/keys", async (request, reply) => {
    const viewer = requireRole(request, reply, "member");
    if (!viewer) return reply;
    const once = takeOnce(context, request, reply, viewer) as NewKeyMessage | undefined;
    return sendKeysPage(context, reply, viewer, once?.kind === "new-key" ? once : undefined);
  });

  app.get("/keys/new", async (request, reply) => {
    const viewer = requireRole(request, reply, "member");
    if (!viewer) return reply;
    return sendMemberPage(context, reply, viewer, { ...createPage, body: newKeyBody({}) });
  });

  app.post("/keys", async (request, reply) => {
    const viewer = requireRole(request, reply, "member");
    if (!viewer) return reply;
    const { values, errors, expiresInSeconds } = readKeyForm(formOf(request));
    if (errors.label || errors.expires)
      return sendMemberPage(
        context,
        reply,
        viewer,
        { ...createPage, body: newKeyBody({ values, errors }) },
        400,
      );
    const made = await createKeyFromForm(context, viewer, values.label, expiresInSeconds);
    if ("error" in made) {
      const body = newKeyBody({ values, errors: { label: made.error } });
      return sendMemberPage(context, reply, viewer, { ...createPage, body }, 400);
    }
    const message: NewKeyMessage = { kind: "new-key", key: made.apiKey.key, label: made.apiKey.label ?? "" };
    keepOnce(context, reply, viewer, message);
    return seeOther(reply, "/keys");
  });
}
