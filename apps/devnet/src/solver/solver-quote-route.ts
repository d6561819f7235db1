import type { DevnetChain } from "@hub/chain";
import type { Address } from "viem";
import { decodeInteropAddress } from "../aggregator/interop-address.js";
import type { getQuoteRequestSchema } from "../aggregator/oif-quote-request.js";
import { type SolanaOutputTarget, solanaOutputTarget } from "./solana-output-fill.js";
import { assetKindOf, type BridgedAssetKind } from "./solver-assets.js";
import { SolverError } from "./solver-error.js";
import type { SolverState } from "./solver-state.js";

export type QuoteRequest = ReturnType<typeof getQuoteRequestSchema.parse>;
type QuoteInput = QuoteRequest["intent"]["inputs"][number];
type QuoteOutput = QuoteRequest["intent"]["outputs"][number];

/** Where one quote goes: its chains, the bridged asset, and an EVM receiver or a Solana output. */
export interface QuoteRoute {
  input: QuoteInput;
  output: QuoteOutput;
  user: Address;
  origin: DevnetChain;
  kind: BridgedAssetKind;
  /** The EVM destination and receiver; absent when the output is paid on Solana. */
  destination?: { chain: DevnetChain; receiver: Address; token: Address };
  solana?: SolanaOutputTarget;
}

/** Checks an EVM-source quote request against what this solver serves, and names its route. */
export function quoteRoute(state: SolverState, request: QuoteRequest): QuoteRoute {
  const { intent } = request;
  const { manifest } = state.config;
  if (intent.inputs.length !== 1)
    throw new SolverError(400, "INVALID_REQUEST", "multi-input quote requests are not supported yet");
  if (intent.outputs.length !== 1)
    throw new SolverError(400, "INVALID_REQUEST", "exactly one output is supported");
  const [input] = intent.inputs as [QuoteInput];
  const [output] = intent.outputs as [QuoteOutput];
  const user = decodeInteropAddress(request.user);
  const inputAsset = decodeInteropAddress(input.asset);
  const origin = inputAsset && manifest.chains.find((c) => c.chainId === inputAsset.chainId);
  const solana =
    origin && state.solanaFiller
      ? solanaOutputTarget(manifest.solana, output, { chainId: origin.chainId, token: inputAsset.address })
      : undefined;
  const outputAsset = solana ? undefined : decodeInteropAddress(output.asset);
  const receiver = solana ? undefined : decodeInteropAddress(output.receiver);
  if (!user || !inputAsset || (!solana && (!outputAsset || !receiver)))
    throw new SolverError(400, "INVALID_REQUEST", "addresses must be ERC-7930 eip155 interop addresses");
  const destination = outputAsset && manifest.chains.find((c) => c.chainId === outputAsset.chainId);
  if (!origin || (!solana && !destination))
    throw new SolverError(422, "UNSUPPORTED_ASSET", "chain not served by this solver");
  if (origin.chainId === destination?.chainId)
    throw new SolverError(422, "UNSUPPORTED_ASSET", "this solver only bridges between chains");
  const kind = assetKindOf(origin, inputAsset.address);
  if (!kind || (destination && outputAsset && assetKindOf(destination, outputAsset.address) !== kind))
    throw new SolverError(422, "UNSUPPORTED_ASSET", "input and output must be the same declared asset");
  return {
    input,
    output,
    user: user.address,
    origin,
    kind,
    ...(destination && receiver
      ? {
          destination: { chain: destination, receiver: receiver.address, token: destination.contracts[kind] },
        }
      : {}),
    ...(solana ? { solana } : {}),
  };
}

export function requireDestination(route: QuoteRoute): NonNullable<QuoteRoute["destination"]> {
  if (!route.destination) throw new Error("an EVM output needs its destination chain");
  return route.destination;
}
