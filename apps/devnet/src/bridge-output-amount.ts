/**
 * What the relayer releases on the destination for a deposit of `amount`: the deposit less the
 * bridge fee in basis points, rounded so the fee is never below what the rate says.
 */
export function bridgeOutputAmount(amount: bigint, feeBps: number): bigint {
  if (!Number.isInteger(feeBps) || feeBps < 0 || feeBps >= 10_000)
    throw new Error(`bad bridge fee ${feeBps}`);
  const fee = (amount * BigInt(feeBps) + 9_999n) / 10_000n;
  return amount - fee;
}
