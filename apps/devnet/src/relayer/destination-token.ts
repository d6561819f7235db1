import type { DevnetChainContracts, DevnetManifest } from "@hub/chain";
import { zeroAddress } from "viem";

const bridgedTokens = ["usdc", "token", "wrappedNative", "undeclaredToken"] as const satisfies ReadonlyArray<
  keyof DevnetChainContracts
>;

/**
 * The destination chain's counterpart of a source token: the contract deployed in the same role
 * (usdc, token, ...). The native coin maps to the native coin. Undefined when there is none.
 */
export function destinationToken(
  manifest: DevnetManifest,
  sourceChainId: number,
  sourceToken: `0x${string}`,
  destinationChainId: number,
): `0x${string}` | undefined {
  if (sourceToken.toLowerCase() === zeroAddress) return zeroAddress;
  const source = manifest.chains.find((chain) => chain.chainId === sourceChainId);
  const destination = manifest.chains.find((chain) => chain.chainId === destinationChainId);
  if (!source || !destination) return undefined;
  const role = bridgedTokens.find(
    (name) => source.contracts[name].toLowerCase() === sourceToken.toLowerCase(),
  );
  return role ? destination.contracts[role] : undefined;
}
