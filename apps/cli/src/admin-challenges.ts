import { randomBytes } from "node:crypto";

const CHALLENGE_LIFETIME_MS = 30_000;
const CHALLENGES_OUTSTANDING = 64;

export interface AdminChallenge {
  clientNonce: string;
  expiresAtMs: number;
}

/** The admin channel's outstanding challenges: server nonce -> the caller's nonce it answered; each is good for one request. */
export interface AdminChallenges {
  /** Answers a caller's nonce with a fresh server nonce. */
  issue(clientNonce: string): string;
  /** The challenge a request names, taken so it serves no second request. */
  take(serverNonce: unknown): AdminChallenge | undefined;
}

export function createAdminChallenges(): AdminChallenges {
  const challenges = new Map<string, AdminChallenge>();
  const forgetExpired = (nowMs: number) => {
    for (const [nonce, challenge] of challenges) if (challenge.expiresAtMs <= nowMs) challenges.delete(nonce);
  };
  return {
    issue(clientNonce) {
      const nowMs = Date.now();
      forgetExpired(nowMs);
      if (challenges.size >= CHALLENGES_OUTSTANDING)
        challenges.delete(challenges.keys().next().value as string);
      const serverNonce = randomBytes(32).toString("hex");
      challenges.set(serverNonce, { clientNonce, expiresAtMs: nowMs + CHALLENGE_LIFETIME_MS });
      return serverNonce;
    },
    take(serverNonce) {
      const challenge = typeof serverNonce === "string" ? challenges.get(serverNonce) : undefined;
      if (typeof serverNonce === "string") challenges.delete(serverNonce);
      return challenge;
    },
  };
}
