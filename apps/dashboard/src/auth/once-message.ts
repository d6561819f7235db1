import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";

/**
 * Something shown once after a redirect (a new key, an invite link): sealed with a key derived from the
 * session token, which only the browser holds, and carried in a short-lived cookie. Nothing is stored on
 * the server, any replica can open it, and a reload finds the cookie cleared.
 */
function keyOf(sessionToken: string): Buffer {
  return Buffer.from(hkdfSync("sha256", sessionToken, "hub-dashboard", "once-message", 32));
}

export function sealOnceMessage(sessionToken: string, message: unknown): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", keyOf(sessionToken), iv);
  const body = Buffer.concat([cipher.update(JSON.stringify(message), "utf8"), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64url");
}

export function openOnceMessage(sessionToken: string, sealed: string): unknown {
  try {
    const bytes = Buffer.from(sealed, "base64url");
    const decipher = createDecipheriv("aes-256-gcm", keyOf(sessionToken), bytes.subarray(0, 12));
    decipher.setAuthTag(bytes.subarray(12, 28));
    const text = Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString("utf8");
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
