import { AdminRefusal, type ApiKeyInfo, parseDurationSeconds } from "@hub/admin";
import type { FastifyReply } from "fastify";
import type { Viewer } from "../auth/dashboard-auth.js";
import type { SafeHtml } from "../html.js";
import {
  type DashboardContext,
  type DashboardFastify,
  formOf,
  keepOnce,
  requireRole,
  seeOther,
  sendPage,
  takeOnce,
} from "../http/dashboard-context.js";
import { accountBody } from "../pages/account-page.js";
import { allowedOriginsBody } from "../pages/allowed-origins-page.js";
import {
  apiKeysPageBody,
  type KeyFormValues,
  keyName,
  type NewKeyMessage,
  newKeyBody,
  revokeConfirmBody,
  rotateKeyBody,
} from "../pages/api-keys-page.js";
import { signedInPage } from "../pages/layout.js";
import { overviewBody } from "../pages/overview-page.js";

type KeyFormErrors = { label?: string; expires?: string };

/**
 * The member pages: overview, API keys, allowed origins; and the account page of every viewer. Every
 * action takes the organization from the session, never from the URL or the form.
 */
export function registerAccessRoutes(app: DashboardFastify, context: DashboardContext): void {
  const { auth, cookies } = context;

  const memberPage = async (
    reply: FastifyReply,
    viewer: Viewer,
    title: string,
    current: string,
    body: SafeHtml,
    status = 200,
  ) => {
    const { organization } = await context.adminFor(viewer).showOrganization({ orgId: viewer.orgId! });
    return sendPage(
      reply,
      signedInPage({ title, viewer, orgName: organization.name, current }, body),
      status,
    );
  };

  const organizationOf = (viewer: Viewer) =>
    context.adminFor(viewer).showOrganization({ orgId: viewer.orgId! });
  const keysOf = async (viewer: Viewer) =>
    (await context.adminFor(viewer).listKeys({ orgId: viewer.orgId! })).apiKeys;
  const ownKey = async (viewer: Viewer, keyId: string | undefined): Promise<ApiKeyInfo | undefined> =>
    keyId ? (await keysOf(viewer)).find((key) => key.keyId === keyId) : undefined;
  // A key id that is not the organization's (another's, or none) answers the key list with 404.
  const keyNotFound = async (reply: FastifyReply, viewer: Viewer) =>
    memberPage(reply, viewer, "API keys", "/keys", apiKeysPageBody({ keys: await keysOf(viewer) }), 404);

  const readKeyForm = (
    form: Record<string, string>,
  ): { values: KeyFormValues; expiresInSeconds?: number; errors: KeyFormErrors } => {
    const values = { label: form.label ?? "", expires: form.expires ?? "" };
    const errors: KeyFormErrors = {};
    if (values.label.trim() === "") errors.label = "Give the key a label, so you know later who uses it.";
    else if (values.label.trim().length > 100) errors.label = "Use at most 100 characters.";
    let expiresInSeconds: number | undefined;
    if (values.expires !== "") {
      expiresInSeconds = parseDurationSeconds(values.expires);
      if (expiresInSeconds === undefined) errors.expires = "Choose one of the listed expiries.";
    }
    return { values, errors, ...(expiresInSeconds !== undefined ? { expiresInSeconds } : {}) };
  };

  const createKey = async (viewer: Viewer, label: string, expiresInSeconds: number | undefined) => {
    try {
      const { apiKey } = await context.adminFor(viewer).createKey({
        orgId: viewer.orgId!,
        label,
        ...(expiresInSeconds !== undefined ? { expiresInSeconds } : {}),
      });
      return { apiKey };
    } catch (error) {
      if (error instanceof AdminRefusal && error.code === "invalid-argument") return { error: error.message };
      throw error;
    }
  };

  app.get("/", async (request, reply) => {
    if (request.viewer?.role === "operator") return seeOther(reply, "/organizations");
    const viewer = requireRole(request, reply, "member");
    if (!viewer) return reply;
    const { organization, project } = await organizationOf(viewer);
    return sendPage(
      reply,
      signedInPage(
        { title: "Overview", viewer, orgName: organization.name, current: "/" },
        overviewBody({ organization, project, apiBaseUrl: context.apiBaseUrl }),
      ),
    );
  });

  app.get("/keys", async (request, reply) => {
    const viewer = requireRole(request, reply, "member");
    if (!viewer) return reply;
    const once = takeOnce(context, request, reply, viewer) as NewKeyMessage | undefined;
    const created = once?.kind === "new-key" ? once : undefined;
    return memberPage(
      reply,
      viewer,
      "API keys",
      "/keys",
      apiKeysPageBody({ keys: await keysOf(viewer), created }),
    );
  });

  app.get("/keys/new", async (request, reply) => {
    const viewer = requireRole(request, reply, "member");
    if (!viewer) return reply;
    return memberPage(reply, viewer, "Create key", "/keys", newKeyBody({}));
  });

  app.post("/keys", async (request, reply) => {
    const viewer = requireRole(request, reply, "member");
    if (!viewer) return reply;
    const { values, errors, expiresInSeconds } = readKeyForm(formOf(request));
    if (errors.label || errors.expires)
      return memberPage(reply, viewer, "Create key", "/keys", newKeyBody({ values, errors }), 400);
    const made = await createKey(viewer, values.label!, expiresInSeconds);
    if ("error" in made)
      return memberPage(
        reply,
        viewer,
        "Create key",
        "/keys",
        newKeyBody({ values, errors: { label: made.error } }),
        400,
      );
    const message: NewKeyMessage = { kind: "new-key", key: made.apiKey.key, label: made.apiKey.label ?? "" };
    keepOnce(context, reply, viewer, message);
    return seeOther(reply, "/keys");
  });

  app.get("/keys/rotate", async (request, reply) => {
    const viewer = requireRole(request, reply, "member");
    if (!viewer) return reply;
    const key = await ownKey(viewer, (request.query as Record<string, string>).keyId);
    if (key?.status !== "active") return seeOther(reply, "/keys");
    return memberPage(reply, viewer, "Rotate key", "/keys", rotateKeyBody({ key }));
  });

  app.post("/keys/rotate", async (request, reply) => {
    const viewer = requireRole(request, reply, "member");
    if (!viewer) return reply;
    const form = formOf(request);
    const old = await ownKey(viewer, form.keyId);
    if (!old) return keyNotFound(reply, viewer);
    const { values, errors, expiresInSeconds } = readKeyForm(form);
    if (errors.label || errors.expires)
      return memberPage(
        reply,
        viewer,
        "Rotate key",
        "/keys",
        rotateKeyBody({ key: old, values, errors }),
        400,
      );
    const made = await createKey(viewer, values.label!, expiresInSeconds);
    if ("error" in made)
      return memberPage(
        reply,
        viewer,
        "Rotate key",
        "/keys",
        rotateKeyBody({ key: old, values, errors: { label: made.error } }),
        400,
      );
    const message: NewKeyMessage = {
      kind: "new-key",
      key: made.apiKey.key,
      label: made.apiKey.label ?? "",
      rotatedFrom: { keyId: old.keyId, label: keyName(old) },
    };
    keepOnce(context, reply, viewer, message);
    return seeOther(reply, "/keys");
  });

  app.post("/keys/revoke", async (request, reply) => {
    const viewer = requireRole(request, reply, "member");
    if (!viewer) return reply;
    const form = formOf(request);
    const key = await ownKey(viewer, form.keyId);
    if (!key) return keyNotFound(reply, viewer);
    if (form.confirmed !== "1")
      return memberPage(reply, viewer, "Revoke key", "/keys", revokeConfirmBody(key));
    await context.adminFor(viewer).revokeKey({ keyId: key.keyId, orgId: viewer.orgId! });
    return seeOther(reply, "/keys");
  });

  app.get("/origins", async (request, reply) => {
    const viewer = requireRole(request, reply, "member");
    if (!viewer) return reply;
    const { project } = await organizationOf(viewer);
    return memberPage(reply, viewer, "Allowed origins", "/origins", allowedOriginsBody({ project }));
  });

  app.post("/origins", async (request, reply) => {
    const viewer = requireRole(request, reply, "member");
    if (!viewer) return reply;
    const value = formOf(request).origin ?? "";
    const { project } = await organizationOf(viewer);
    if (!project)
      return memberPage(reply, viewer, "Allowed origins", "/origins", allowedOriginsBody({ project }), 409);
    try {
      await context.adminFor(viewer).addProjectOrigin({ projectId: project.projectId, origin: value });
    } catch (error) {
      if (!(error instanceof AdminRefusal) || error.code !== "invalid-origin") throw error;
      const message = `${error.message.replace(/^invalid origin "(.*)": /, "")}.`;
      return memberPage(
        reply,
        viewer,
        "Allowed origins",
        "/origins",
        allowedOriginsBody({ project, value, error: `Not an exact origin: ${message}` }),
        400,
      );
    }
    return seeOther(reply, "/origins");
  });

  app.post("/origins/remove", async (request, reply) => {
    const viewer = requireRole(request, reply, "member");
    if (!viewer) return reply;
    const { project } = await organizationOf(viewer);
    if (project)
      await context
        .adminFor(viewer)
        .removeProjectOrigin({ projectId: project.projectId, origin: formOf(request).origin ?? "" });
    return seeOther(reply, "/origins");
  });

  const accountPage = async (
    reply: FastifyReply,
    viewer: Viewer,
    errors?: Parameters<typeof accountBody>[0]["errors"],
    status = 200,
  ) => {
    if (viewer.role === "member")
      return memberPage(
        reply,
        viewer,
        "Account",
        "/account",
        accountBody({ viewer, ...(errors ? { errors } : {}) }),
        status,
      );
    return sendPage(
      reply,
      signedInPage(
        { title: "Account", viewer, current: "/account" },
        accountBody({ viewer, ...(errors ? { errors } : {}) }),
      ),
      status,
    );
  };

  app.get("/account", async (request, reply) => {
    const viewer = request.viewer;
    if (!viewer) return seeOther(reply, "/sign-in");
    return accountPage(reply, viewer);
  });

  app.post("/account/password", async (request, reply) => {
    const viewer = request.viewer ?? requireRole(request, reply, "member");
    if (!viewer) return reply;
    const form = formOf(request);
    const result = await auth.changePassword({
      viewer,
      current: form.current ?? "",
      next: form.next ?? "",
      confirm: form.confirm ?? "",
    });
    if (!result.ok) return accountPage(reply, viewer, { [result.field]: result.message }, 400);
    reply.header("set-cookie", cookies.set(cookies.session, "", 0));
    return seeOther(reply, "/sign-in?notice=password-changed");
  });
}
