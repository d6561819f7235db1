/**
 * The two ways the devnet's OIF services speak, chosen per mount at start: the published
 * specification (`@openintentsframework/oif-specs` 1.0.0, paths `/v1/...`) and the reference
 * aggregator and solver (openintentsframework/oif-aggregator and oif-solver, paths `/api/v1/...`).
 * The services work in the reference's words; the `oif-spec-1` mounts translate at the edge.
 */
export const oifDialects = ["oif-spec-1", "oif-aggregator"] as const;

export type OifDialect = (typeof oifDialects)[number];

/** Path prefix of the OIF routes below a mount. */
export const dialectPathPrefix: Readonly<Record<OifDialect, string>> = {
  "oif-spec-1": "/v1",
  "oif-aggregator": "/api/v1",
};

/**
 * An order status in the specification's plain enum: the reference's `{"failed": [stage, message]}`
 * arm becomes `failed` (the specification has neither stage nor message); every other value is
 * passed on as it is (a faulty solver's `postFilled` stays outside the enum, as the fault means it).
 */
export function specOrderStatus(status: unknown): unknown {
  return typeof status === "object" && status !== null && "failed" in status ? "failed" : status;
}

/** The specification's order payload: `signatureType` is `eip712` on every EVM order type; a Solana one stays `ed25519`. */
export function specOrder<T extends { payload: { signatureType: string } }>(order: T): T {
  if (order.payload.signatureType === "ed25519") return order;
  return { ...order, payload: { ...order.payload, signatureType: "eip712" } };
}

/** The specification's PostOrderResponse status of a refusal with this HTTP status. */
export function specRefusalStatus(statusCode: number): "rejected" | "error" {
  return statusCode >= 400 && statusCode < 500 && statusCode !== 429 ? "rejected" : "error";
}
