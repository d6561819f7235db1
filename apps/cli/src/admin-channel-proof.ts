import { createHmac, timingSafeEqual } from "node:crypto";

/** Who proves what: each label keys one step of the challenge, so no proof can stand in for another. */
export type AdminChannelProofLabel = "server" | "client" | "answer";

/** HMAC-SHA256 under the channel's secret over a label and the parts, each length-prefixed. */
export function adminChannelProof(secret: string, label: AdminChannelProofLabel, ...parts: string[]): string {
  const mac = createHmac("sha256", secret).update(label);
  for (const part of parts) mac.update(`\n${Buffer.byteLength(part)}:`).update(part);
  return mac.digest("hex");
}

/** Compares a presented proof with the expected one in constant time. */
export function isAdminChannelProof(presented: unknown, expected: string): boolean {
  if (typeof presented !== "string" || presented.length !== expected.length) return false;
  return timingSafeEqual(Buffer.from(presented), Buffer.from(expected));
}
