import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { Admin } from "@hub/admin";
import type { Clock } from "@hub/clock";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { Logger } from "pino";
import type { AttemptLimiter } from "../auth/attempt-limiter.js";
import type { DashboardAuth } from "../auth/dashboard-auth.js";
import type { Viewer } from "../auth/viewer.js";
import { openOnceMessage, sealOnceMessage } from "../auth/once-message.js";
import { type CookieJar, readCookies } from "../auth/session-cookie.js";
import type { SafeHtml } from "../html.js";
import { publicPage } from "../pages/layout.js";
import { messageBody } from "../pages/message-page.js";

declare module "fastify" {
  interface FastifyRequest {
    viewer: Viewer | undefined;
  }
}

/** The dashboard's Fastify instance, logging through pino. */
export type DashboardFastify = FastifyInstance<Server, IncomingMessage, ServerResponse, Logger>;

/** What every route of the dashboard works with. */
export interface DashboardContext {
  auth: DashboardAuth;
  /** The limits on attempts at a secret (passwords now; two-factor codes use scope "code"). */
  attempts: AttemptLimiter;
  /** The admin module, acting for this viewer. */
  adminFor(viewer: Viewer): Admin;
  /** Whether the gateways' usage counters are at hand (the API keys page shows per-key calls then). */
  hasUsage: boolean;
  cookies: CookieJar;
  apiBaseUrl: string;
  publicOrigin(): string;
  clock: Clock;
  logger: Logger;
}

export function sendPage(reply: FastifyReply, page: SafeHtml, status = 200): FastifyReply {
  return reply.code(status).type("text/html; charset=utf-8").send(page.text);
}

/** POST → redirect → GET: a 303 to a page of the dashboard. */
export function seeOther(reply: FastifyReply, location: string): FastifyReply {
  return reply.code(303).header("location", location).send();
}

/** The form fields of a urlencoded body (the first value of each name); empty when there is none. */
export function formOf(request: FastifyRequest): Record<string, string> {
  const body = request.body;
  return body && typeof body === "object" ? (body as Record<string, string>) : {};
}

/**
 * The signed-in viewer with the role the route needs. Otherwise the answer is sent: a page read
 * without a session goes to the sign-in page, an action without one is 401, and the other role is 403.
 */
/** A signed-in member: every member account belongs to one organization. */
export type MemberViewer = Viewer & { orgId: string };

export function requireRole(
  request: FastifyRequest,
  reply: FastifyReply,
  role: "member",
): MemberViewer | undefined;
export function requireRole(
  request: FastifyRequest,
  reply: FastifyReply,
  role: Viewer["role"],
): Viewer | undefined;
export function requireRole(
  request: FastifyRequest,
  reply: FastifyReply,
  role: Viewer["role"],
): Viewer | undefined {
  const viewer = request.viewer;
  if (!viewer) {
    if (request.method === "GET" || request.method === "HEAD") seeOther(reply, "/sign-in");
    else
      sendPage(
        reply,
        publicPage(
          "Signed out",
          messageBody("You are signed out", "Sign in again to continue.", {
            href: "/sign-in",
            label: "Sign in",
          }),
        ),
        401,
      );
    return undefined;
  }
  if (viewer.role !== role) {
    const page = publicPage(
      "Not for this account",
      messageBody(
        "Not for this account",
        role === "operator"
          ? "This page is for the service's operators only."
          : "This page is for members of an organization; operators manage organizations from their own pages.",
        { href: "/", label: "Back to your pages" },
      ),
    );
    sendPage(reply, page, 403);
    return undefined;
  }
  if (viewer.role === "member" && viewer.orgId === null)
    throw new Error(`member account ${viewer.accountId} belongs to no organization`);
  return viewer;
}

/** Keeps a message for the next page this viewer loads, and only that one. */
export function keepOnce(
  context: DashboardContext,
  reply: FastifyReply,
  viewer: Viewer,
  message: unknown,
): void {
  reply.header(
    "set-cookie",
    context.cookies.set(context.cookies.once, sealOnceMessage(viewer.sessionToken, message), 120),
  );
}

/** The message kept for this page load, if any; it is cleared as it is read. */
export function takeOnce(
  context: DashboardContext,
  request: FastifyRequest,
  reply: FastifyReply,
  viewer: Viewer,
): unknown {
  const sealed = readCookies(request.headers.cookie).get(context.cookies.once);
  if (!sealed) return undefined;
  reply.header("set-cookie", context.cookies.set(context.cookies.once, "", 0));
  return openOnceMessage(viewer.sessionToken, sealed);
}
