import { createHash, randomFillSync, randomUUID } from "node:crypto";

/** The prefix the spec fixes for the hub order id derivation; its `v1` follows the API version. */
export const HUB_ORDER_ID_PREFIX = "service:v1:order:";

/** hubOrderId: lowercase hex SHA-256 of `service:v1:order:` followed by the quoteId. */
export function hubOrderId(quoteId: string): string {
  return createHash("sha256")
    .update(HUB_ORDER_ID_PREFIX + quoteId, "utf8")
    .digest("hex");
}

/** A fresh request id for a call that arrived without one. */
export function newRequestId(): string {
  return randomUUID();
}

const OPAQUE_ID_RANDOM_BYTES = 16;
// Drawn for 64 ids at a time, as randomUUID keeps its own: one call into the CSPRNG instead of one an id.
const opaqueIdEntropy = Buffer.allocUnsafeSlow(OPAQUE_ID_RANDOM_BYTES * 64);
let opaqueIdEntropyUsed = opaqueIdEntropy.length;

/** An opaque url-safe id: `<prefix>_<replica>_<random>`; the replica part lets the gateway route back. */
export function newOpaqueId(prefix: string, replicaId: string): string {
  if (opaqueIdEntropyUsed === opaqueIdEntropy.length) {
    randomFillSync(opaqueIdEntropy);
    opaqueIdEntropyUsed = 0;
  }
  const start = opaqueIdEntropyUsed;
  opaqueIdEntropyUsed += OPAQUE_ID_RANDOM_BYTES;
  return `${prefix}_${replicaId}_${opaqueIdEntropy.toString("base64url", start, opaqueIdEntropyUsed)}`;
}

/** The replica that issued an opaque id, or undefined when the id is not in that shape. */
export function replicaOfOpaqueId(id: string): string | undefined {
  // The random part is base64url and may itself contain `_`; prefix and replica never do.
  const first = id.indexOf("_");
  const second = id.indexOf("_", first + 1);
  if (first <= 0 || second <= first + 1 || second === id.length - 1) return undefined;
  return id.slice(first + 1, second);
}
