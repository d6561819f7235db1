import { randomBytes } from "node:crypto";
import { hashDashboardToken, normaliseEmail } from "@hub/admin";
import type { DashboardAccountRecord } from "@hub/store";
import type { DashboardAuthState } from "./dashboard-auth-state.js";
import { lockoutMessage } from "./lockout-message.js";
import { openSession } from "./open-session.js";

/** How long a pending sign-in (password accepted, code to come) lasts. */
export const PENDING_SIGN_IN_SECONDS = 300;

export interface SignInInput {
  email: string;
  password: string;
  ip: string;
  userAgent?: string;
}

export type SignInResult =
  | { ok: true; sessionToken: string }
  | { ok: "code"; pendingToken: string }
  | { ok: false; reason: "wrong"; message: string }
  | { ok: false; reason: "locked"; lockedUntilMs: number; message: string };

export async function signIn(
  state: DashboardAuthState,
  { email, password, ip, userAgent }: SignInInput,
): Promise<SignInResult> {
  const { store, attempts, hasher, clock } = state;
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
  // The attempt is counted before the hash is computed: a burst beyond the limit costs no hash.
  const attempt = await attempts.reserve("sign-in", normalised, ip);
  if (!attempt.allowed)
    return {
      ok: false,
      reason: "locked",
      lockedUntilMs: attempt.lockedUntilMs,
      message: lockoutMessage(attempt.lockedUntilMs, clock.now(), "sign-ins"),
    };
  const account = await store.findAccountByEmail(normalised);
  const storedHash = account?.passwordHash;
  const matches = storedHash
    ? await hasher.verify(password, storedHash)
    : await state.verifyNothing(password);
  if (!account || !storedHash || !matches) return wrong;
  // A disabled operator's password signs in no more (a removed member has no account left).
  if (account.disabledAt !== null) return wrong;
  await attempt.succeeded();
  if (!hasher.isCurrent(storedHash))
    await store.upgradePasswordHash(account.accountId, storedHash, await hasher.hash(password));
  if (account.totpEnabledAt !== null) return { ok: "code", pendingToken: await pendSignIn(state, account) };
  return { ok: true, sessionToken: await openSession(state, account.accountId, ip, userAgent) };
}

/** Keeps the accepted password's sign-in until its code comes; the pending sign-in's token. */
async function pendSignIn(state: DashboardAuthState, account: DashboardAccountRecord): Promise<string> {
  const pendingToken = randomBytes(32).toString("base64url");
  const createdAt = new Date(state.clock.now());
  await state.store.createPendingSignIn({
    tokenHash: hashDashboardToken(pendingToken),
    accountId: account.accountId,
    createdAt,
    expiresAt: new Date(createdAt.getTime() + PENDING_SIGN_IN_SECONDS * 1000),
  });
  return pendingToken;
}
