import { randomBytes } from "node:crypto";
import { hashDashboardToken, normaliseEmail } from "@hub/admin";
import type { Clock } from "@hub/clock";
import type { DashboardAccountRecord, DashboardStore } from "@hub/store";
import { hashPassword, verifyNothing, verifyPassword } from "./password-hash.js";
import type { SignInLockout } from "./sign-in-lockout.js";

export const passwordRule = { minLength: 12, maxLength: 200 } as const;

export interface SessionLimits {
  idleMs: number;
  absoluteMs: number;
}

/** Who a session signs in: what every page and action decides on. */
export interface Viewer {
  accountId: string;
  email: string;
  role: "member" | "operator";
  orgId: string | null;
  sessionToken: string;
}

export type SignInResult =
  | { ok: true; sessionToken: string }
  | { ok: false; reason: "wrong"; message: string }
  | { ok: false; reason: "locked"; lockedUntilMs: number; message: string };

export type InviteState =
  | { usable: true; email: string; hasPassword: boolean }
  | { usable: false; message: string };

export type RedeemResult =
  | { ok: true; sessionToken: string }
  | { ok: false; field: "password" | "confirm"; message: string }
  | { ok: false; field: null; message: string };

export interface DashboardAuth {
  signIn(input: { email: string; password: string; ip: string }): Promise<SignInResult>;
  inviteState(token: string): Promise<InviteState>;
  /** Uses the invite once: sets the password (required when the account has none) and opens a session. */
  redeemInvite(input: { token: string; password: string; confirm: string }): Promise<RedeemResult>;
  /** The session's viewer, its idle time renewed; undefined when unknown or expired. */
  viewerOf(sessionToken: string): Promise<Viewer | undefined>;
  signOut(sessionToken: string): Promise<void>;
  /** Ends every session of the account. */
  changePassword(input: {
    viewer: Viewer;
    current: string;
    next: string;
    confirm: string;
  }): Promise<{ ok: true } | { ok: false; field: "current" | "next" | "confirm"; message: string }>;
}

const INVALID_LINK = "This sign-in link is not valid. Ask an operator for a new one.";

function passwordProblem(
  password: string,
  confirm: string,
): { field: "next" | "confirm"; message: string } | undefined {
  if (password.length < passwordRule.minLength)
    return { field: "next", message: `Use at least ${passwordRule.minLength} characters.` };
  if (password.length > passwordRule.maxLength)
    return { field: "next", message: `Use at most ${passwordRule.maxLength} characters.` };
  if (password !== confirm) return { field: "confirm", message: "The two passwords differ." };
  return undefined;
}

export function createDashboardAuth(deps: {
  store: DashboardStore;
  lockout: SignInLockout;
  clock: Clock;
  limits: SessionLimits;
}): DashboardAuth {
  const { store, lockout, clock, limits } = deps;

  const newSession = () => {
    const sessionToken = randomBytes(32).toString("base64url");
    const createdAt = new Date(clock.now());
    return {
      sessionToken,
      session: {
        tokenHash: hashDashboardToken(sessionToken),
        createdAt,
        expiresAt: new Date(createdAt.getTime() + limits.absoluteMs),
      },
    };
  };

  const findUsableInvite = async (token: string) => {
    if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return { invite: undefined, message: INVALID_LINK };
    const invite = await store.findInvite(hashDashboardToken(token));
    if (!invite) return { invite: undefined, message: INVALID_LINK };
    if (invite.usedAt)
      return {
        invite: undefined,
        message: "This sign-in link was already used. Ask an operator for a new one.",
      };
    if (invite.expiresAt.getTime() <= clock.now())
      return {
        invite: undefined,
        message:
          "This sign-in link has expired (links are valid for 24 hours). Ask an operator for a new one.",
      };
    return { invite, message: "" };
  };

  const viewer = (account: DashboardAccountRecord, sessionToken: string): Viewer => ({
    accountId: account.accountId,
    email: account.email,
    role: account.role,
    orgId: account.orgId,
    sessionToken,
  });

  return {
    async signIn({ email, password, ip }) {
      const wrong = {
        ok: false,
        reason: "wrong",
        message: "The email or the password is not right.",
      } as const;
      let normalised: string;
      try {
        normalised = normaliseEmail(email);
      } catch {
        return wrong;
      }
      const lockedUntilMs = await lockout.lockedUntil(normalised, ip);
      if (lockedUntilMs !== undefined) {
        const minutes = Math.max(1, Math.ceil((lockedUntilMs - clock.now()) / 60_000));
        return {
          ok: false,
          reason: "locked",
          lockedUntilMs,
          message: `Too many failed sign-ins. Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`,
        };
      }
      const account = await store.findAccountByEmail(normalised);
      const matches = account?.passwordHash
        ? await verifyPassword(password, account.passwordHash)
        : await verifyNothing(password);
      if (!account || !matches) {
        await lockout.recordFailure(normalised, ip);
        return wrong;
      }
      const { sessionToken, session } = newSession();
      await store.createSession({ ...session, accountId: account.accountId });
      return { ok: true, sessionToken };
    },

    async inviteState(token) {
      const { invite, message } = await findUsableInvite(token);
      if (!invite) return { usable: false, message };
      return { usable: true, email: invite.account.email, hasPassword: invite.account.passwordHash !== null };
    },

    async redeemInvite({ token, password, confirm }) {
      const { invite, message } = await findUsableInvite(token);
      if (!invite) return { ok: false, field: null, message };
      const settingPassword = invite.account.passwordHash === null || password !== "" || confirm !== "";
      if (settingPassword) {
        const problem = passwordProblem(password, confirm);
        if (problem)
          return {
            ok: false,
            field: problem.field === "next" ? "password" : "confirm",
            message: problem.message,
          };
      }
      const { sessionToken, session } = newSession();
      const outcome = await store.redeemInvite({
        tokenHash: hashDashboardToken(token),
        at: new Date(clock.now()),
        passwordHash: settingPassword ? await hashPassword(password) : null,
        session,
      });
      if (!outcome.redeemed)
        return { ok: false, field: null, message: (await findUsableInvite(token)).message || INVALID_LINK };
      return { ok: true, sessionToken };
    },

    async viewerOf(sessionToken) {
      if (!/^[A-Za-z0-9_-]{43}$/.test(sessionToken)) return undefined;
      const tokenHash = hashDashboardToken(sessionToken);
      const session = await store.findSession(tokenHash);
      if (!session) return undefined;
      const nowMs = clock.now();
      if (session.expiresAt.getTime() <= nowMs || session.lastSeenAt.getTime() + limits.idleMs <= nowMs) {
        await store.deleteSession(tokenHash);
        return undefined;
      }
      await store.touchSession(tokenHash, new Date(nowMs));
      return viewer(session.account, sessionToken);
    },

    async signOut(sessionToken) {
      await store.deleteSession(hashDashboardToken(sessionToken));
    },

    async changePassword({ viewer: who, current, next, confirm }) {
      const account = await store.findAccountByEmail(who.email);
      if (!account?.passwordHash || !(await verifyPassword(current, account.passwordHash)))
        return { ok: false, field: "current", message: "This is not your current password." };
      const problem = passwordProblem(next, confirm);
      if (problem) return { ok: false, ...problem };
      await store.changePassword(account.accountId, await hashPassword(next));
      return { ok: true };
    },
  };
}
