import { randomBytes } from "node:crypto";
import { hashDashboardToken } from "@hub/admin";
import type { DashboardAuthState } from "./dashboard-auth-state.js";

/** A new session's token and the row that stands for it (the token's hash, never the token). */
export function newSession(state: DashboardAuthState) {
  const sessionToken = randomBytes(32).toString("base64url");
  const createdAt = new Date(state.clock.now());
  return {
    sessionToken,
    session: {
      tokenHash: hashDashboardToken(sessionToken),
      createdAt,
      expiresAt: new Date(createdAt.getTime() + state.limits.absoluteMs),
    },
  };
}

/** What a session keeps of the request that opened it, cut to the columns' sizes. */
export function sessionOrigin(ip: string | undefined, userAgent: string | undefined) {
  return { address: ip ? ip.slice(0, 64) : null, userAgent: userAgent ? userAgent.slice(0, 512) : null };
}

/** Opens a session for the account and records the sign-in; the session's token. */
export async function openSession(
  state: DashboardAuthState,
  accountId: string,
  ip: string | undefined,
  userAgent: string | undefined,
): Promise<string> {
  const { sessionToken, session } = newSession(state);
  await state.store.createSession({ ...session, ...sessionOrigin(ip, userAgent), accountId });
  await state.store.recordSignIn(accountId, session.createdAt);
  return sessionToken;
}
