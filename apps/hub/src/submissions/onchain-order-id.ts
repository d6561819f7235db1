const UPSTREAM_ID = /^(0x)?[0-9a-fA-F]{64}$/;

/** An upstream order id as an on-chain id (`0x` + 64 lowercase hex), or undefined when it is not one. */
export function onchainOrderIdOf(upstreamOrderId: string): `0x${string}` | undefined {
  if (!UPSTREAM_ID.test(upstreamOrderId)) return undefined;
  return `0x${upstreamOrderId.replace(/^0x/, "").toLowerCase()}`;
}
