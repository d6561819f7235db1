import { type Admin, createAdmin } from "@hub/admin";
import { type AdjustableClock, createAdjustableClock } from "@hub/clock";
import { createMemoryCounters } from "@hub/counters";
import { createReservationBook } from "@hub/hub-app";
import {
  createAccessStore,
  createAuditStore,
  createDashboardStore,
  createUsageStore,
  type TestDatabase,
  type TestDatabases,
  type TestDriver,
} from "@hub/store";
import { pino } from "pino";
import type { PasswordHasher } from "../src/auth/password-hash.js";
import { createDashboardApp, type DashboardApp, type DashboardConfig } from "../src/create-dashboard-app.js";

export const DASHBOARD_ORIGIN = "http://127.0.0.1:8081";
export const PASSWORD = "correct horse battery staple";

export interface Answer {
  status: number;
  body: string;
  headers: Record<string, string | string[] | number | undefined>;
  location: string | undefined;
  cookies: string[];
}

export interface DashboardFixture {
  /** The dashboard's URL when it listens (options.listen), else its configured origin. */
  url: string;
  db: TestDatabase;
  dashboard: DashboardApp;
  admin: Admin;
  clock: AdjustableClock;
  /** One request through the app; writes carry the dashboard's Origin unless told otherwise. */
  request(
    method: "GET" | "POST",
    url: string,
    options?: {
      cookie?: string;
      form?: Record<string, string>;
      origin?: string | null;
      ip?: string;
      userAgent?: string;
      /** A raw urlencoded body, sent as is (form is ignored). */
      body?: string;
    },
  ): Promise<Answer>;
  /** A new organization with its project; its name as given. */
  organization(name?: string): Promise<{ orgId: string; projectId: string }>;
  /** A member of the organization signed in through an invite link; the session cookie. */
  signInMember(orgId: string, email?: string): Promise<string>;
  signInOperator(email?: string): Promise<string>;
  close(): Promise<void>;
}

let counter = 0;
const uniqueEmail = (what: string) => `${what}-${Date.now()}-${++counter}@example.com`;

function sessionCookieOf(answer: Answer): string {
  const set = answer.cookies.find(
    (cookie) => cookie.startsWith("hub_session=") || cookie.startsWith("__Host-hub_session="),
  );
  if (!set) throw new Error(`no session cookie (status ${answer.status}):\n${answer.body.slice(0, 500)}`);
  return set.split(";")[0]!;
}

export async function openDashboardFixture(
  databases: TestDatabases,
  driver: TestDriver,
  config: Partial<DashboardConfig> = {},
  options: { listen?: boolean; passwordHasher?: PasswordHasher } = {},
): Promise<DashboardFixture> {
  const db = await databases.open(driver);
  const store = {
    access: createAccessStore(db.sql),
    dashboard: createDashboardStore(db.sql),
    usage: createUsageStore(db.sql),
    audit: createAuditStore(db.sql),
  };
  const clock = createAdjustableClock();
  const reservations = createReservationBook(db.sql);
  const dashboard = createDashboardApp({
    config: {
      ...(options.listen ? {} : { publicOrigin: DASHBOARD_ORIGIN }),
      apiBaseUrl: "http://127.0.0.1:8080/v1",
      ...config,
    },
    store,
    reservations,
    clock,
    counters: createMemoryCounters({}, { clock }),
    ...(options.passwordHasher ? { passwordHasher: options.passwordHasher } : {}),
    logger: pino({ level: "silent" }),
  });
  const url = options.listen ? await dashboard.listen({ host: "127.0.0.1", port: 0 }) : DASHBOARD_ORIGIN;
  const admin = createAdmin({ store: store.access, accounts: store.dashboard, reservations, clock });

  const request: DashboardFixture["request"] = async (method, url, options = {}) => {
    const headers: Record<string, string> = {};
    if (options.cookie) headers.cookie = options.cookie;
    const origin =
      options.origin === undefined ? (method === "GET" ? undefined : DASHBOARD_ORIGIN) : options.origin;
    if (origin) headers.origin = origin;
    if (options.userAgent) headers["user-agent"] = options.userAgent;
    const payload = options.body ?? (options.form ? new URLSearchParams(options.form).toString() : undefined);
    if (payload !== undefined) headers["content-type"] = "application/x-www-form-urlencoded";
    const answer = await dashboard.app.inject({
      method,
      url,
      headers,
      ...(payload !== undefined ? { payload } : {}),
      ...(options.ip ? { remoteAddress: options.ip } : {}),
    });
    const setCookie = answer.headers["set-cookie"];
    return {
      status: answer.statusCode,
      body: answer.body,
      headers: answer.headers,
      location: answer.headers.location as string | undefined,
      cookies: setCookie === undefined ? [] : Array.isArray(setCookie) ? setCookie : [setCookie],
    };
  };

  const redeem = async (token: string) =>
    sessionCookieOf(
      await request("POST", `/sign-in/${token}`, { form: { password: PASSWORD, confirm: PASSWORD } }),
    );

  return {
    url,
    db,
    dashboard,
    admin,
    clock,
    request,
    async organization(name = "Acme") {
      const { organization } = await admin.createOrganization({ name });
      const { project } = await admin.createProject({ orgId: organization.orgId, origins: [] });
      return { orgId: organization.orgId, projectId: project.projectId };
    },
    async signInMember(orgId, email = uniqueEmail("member")) {
      const { invite } = await admin.inviteMember({ orgId, email });
      return redeem(invite.token);
    },
    async signInOperator(email = uniqueEmail("operator")) {
      const { invite } = await admin.inviteOperator({ email });
      return redeem(invite.token);
    },
    async close() {
      await dashboard.close();
      await db.dispose();
    },
  };
}
