/** The prefix the spec fixes for hubOrderId; its `v1` follows the API version. */
const HUB_ORDER_ID_PREFIX = "service:v1:order:";

/** hubOrderId: lowercase hex SHA-256 of `service:v1:order:` followed by the quoteId (WebCrypto: Node and browsers). */
export async function hubOrderIdOf(quoteId: string): Promise<string> {
  const digest = await crypto.subtle.digest(
    "SHA-256",
    new TextEncoder().encode(HUB_ORDER_ID_PREFIX + quoteId),
  );
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, "0")).join("");
}
