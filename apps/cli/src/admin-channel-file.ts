import { readFileSync } from "node:fs";
import { join } from "node:path";

export const ADMIN_CHANNEL_PATH = "/admin";
/** Where the CLI sends its nonce; the answer proves the server holds the token. */
export const ADMIN_CHALLENGE_PATH = "/admin/challenge";
/** Header naming the server's nonce the request answers. */
export const ADMIN_NONCE_HEADER = "x-hub-admin-nonce";
/** Header carrying the request's proof, and the answer's. */
export const ADMIN_PROOF_HEADER = "x-hub-admin-proof";
/** Nonces are 32 random bytes, hex. */
export const ADMIN_NONCE_PATTERN = /^[0-9a-f]{64}$/;

/** The channel's answers: `{ ok: true, result }` or `{ ok: false, error: { code, message } }`. */
export type AdminChannelAnswer =
  | { ok: true; result: Record<string, unknown> }
  | { ok: false; error: { code: string; message: string } };

/** The channel's answer to a challenge: its nonce and its proof of the token over both nonces. */
export interface AdminChallengeAnswer {
  serverNonce: string;
  serverProof: string;
}

/** What `<dataDir>/admin.json` holds while a service runs its admin channel; the token never leaves it. */
export interface AdminChannelFile {
  port: number;
  token: string;
  pid: number;
}

export function adminChannelFilePath(dataDir: string): string {
  return join(dataDir, "admin.json");
}

/** The channel file's content, or undefined when it is missing or unreadable. */
export function readAdminChannelFile(dataDir: string): AdminChannelFile | undefined {
  try {
    const parsed = JSON.parse(
      readFileSync(adminChannelFilePath(dataDir), "utf8"),
    ) as Partial<AdminChannelFile>;
    if (
      Number.isInteger(parsed.port) &&
      Number.isInteger(parsed.pid) &&
      typeof parsed.token === "string" &&
      parsed.token.length > 0
    ) {
      return parsed as AdminChannelFile;
    }
    return undefined;
  } catch {
    return undefined;
  }
}
