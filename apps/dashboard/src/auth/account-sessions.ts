import { hashDashboardToken } from "@hub/admin";
import type { DashboardAuthState } from "./dashboard-auth-state.js";
import { type Viewer, viewerOfAccount } from "./viewer.js";

/** One session as its member sees it on the Account page. */
export interface SessionView {
  /** The SHA-256 of the session's token (never the token): names the session in the form that ends it. */
  handle: string;
  current: boolean;
  createdAt: Date;
  lastSeenAt: Date;
  address: string | null;
  userAgent: string | null;
}

/** The session's viewer, its idle time renewed; undefined when unknown or expired (then it is deleted). */
export async function viewerOfSession(
  state: DashboardAuthState,
  sessionToken: string,
): Promise<Viewer | undefined> {
  const { store, clock, limits } = state;
  if (!/^[A-Za-z0-9_-]{43}$/.test(sessionToken)) return undefined;
  const tokenHash = hashDashboardToken(sessionToken);
  const session = await store.findSession(tokenHash);
  if (!session || session.account.disabledAt !== null) return undefined;
  const nowMs = clock.now();
  if (session.expiresAt.getTime() <= nowMs || session.lastSeenAt.getTime() + limits.idleMs <= nowMs) {
    await store.deleteSession(tokenHash);
    return undefined;
  }
  await store.touchSession(tokenHash, new Date(nowMs));
  return viewerOfAccount(session.account, sessionToken);
}

export async function signOut(state: DashboardAuthState, sessionToken: string): Promise<void> {
  await state.store.deleteSession(hashDashboardToken(sessionToken));
}

export async function sessionsOf(state: DashboardAuthState, who: Viewer): Promise<SessionView[]> {
  const current = hashDashboardToken(who.sessionToken);
  const nowMs = state.clock.now();
  return (await state.store.listSessions(who.accountId))
    .filter(
      (session) =>
        session.expiresAt.getTime() > nowMs && session.lastSeenAt.getTime() + state.limits.idleMs > nowMs,
    )
    .map((session) => ({
      handle: session.tokenHash,
      current: session.tokenHash === current,
      createdAt: session.createdAt,
      lastSeenAt: session.lastSeenAt,
      address: session.address,
      userAgent: session.userAgent,
    }));
}

export async function endOtherSession(
  state: DashboardAuthState,
  who: Viewer,
  handle: string,
): Promise<boolean> {
  if (!/^[0-9a-f]{64}$/.test(handle) || handle === hashDashboardToken(who.sessionToken)) return false;
  return state.store.deleteSessionOf(who.accountId, handle);
}

export async function endOtherSessions(state: DashboardAuthState, who: Viewer): Promise<number> {
  return state.store.deleteSessionsExcept(who.accountId, hashDashboardToken(who.sessionToken));
}
