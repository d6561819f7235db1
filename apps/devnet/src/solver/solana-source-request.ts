import {
  type DevnetChain,
  type DevnetManifest,
  type DevnetSolanaToken,
  decodeSolanaInteropAddress,
} from "@hub/chain";
import { decodeInteropAddress } from "../aggregator/interop-address.js";
import type { GetQuoteRequest } from "../aggregator/oif-quote-request.js";
import { SolverError } from "./solver-error.js";

export const svmEscrowOrderType = "oif-svm-escrow-v0";

function counterpartChain(
  manifest: DevnetManifest,
  token: DevnetSolanaToken,
  evm: { chainId: number; address: string },
): DevnetChain | undefined {
  const key = `eip155:${evm.chainId}/erc20:${evm.address.toLowerCase()}`;
  if (!token.counterparts.includes(key)) return undefined;
  return manifest.chains.find((chain) => chain.chainId === evm.chainId);
}

/**
 * The parts of a Solana → EVM quote request, checked: one input (a declared Solana token of the user)
 * and one output (its EVM counterpart), on the chains this devnet runs, settled as an svm escrow.
 */
export function readSolanaSourceRequest(request: GetQuoteRequest, manifest: DevnetManifest) {
  const { intent } = request;
  const solanaChain = manifest.solana;
  if (!solanaChain) throw new SolverError(422, "UNSUPPORTED_ASSET", "this devnet has no Solana chain");
  const [requested] = intent.inputs;
  const [wanted] = intent.outputs;
  if (intent.inputs.length !== 1 || intent.outputs.length !== 1 || !requested || !wanted)
    throw new SolverError(400, "INVALID_REQUEST", "exactly one input and one output are supported");
  const user = decodeSolanaInteropAddress(request.user);
  const inputUser = decodeSolanaInteropAddress(requested.user);
  const mint = decodeSolanaInteropAddress(requested.asset);
  const outputAsset = decodeInteropAddress(wanted.asset);
  const receiver = decodeInteropAddress(wanted.receiver);
  if (!user || !inputUser || !mint || !outputAsset || !receiver)
    throw new SolverError(
      400,
      "INVALID_REQUEST",
      "a Solana source takes Solana interop addresses for the user and the input, eip155 ones for the output",
    );
  if (user.address !== inputUser.address)
    throw new SolverError(400, "INVALID_REQUEST", "the input's user must be the request's user");
  if (
    [user, inputUser, mint].some((account) => account.genesisHash !== solanaChain.genesisHash) ||
    receiver.chainId !== outputAsset.chainId
  )
    throw new SolverError(422, "UNSUPPORTED_ASSET", "chain not served by this solver");
  const token = solanaChain.tokens.find((t) => t.mint === mint.address);
  const destination = token && counterpartChain(manifest, token, outputAsset);
  if (!token || !destination)
    throw new SolverError(422, "UNSUPPORTED_ASSET", "input and output must be the same declared asset");
  if (!request.supportedTypes.includes(svmEscrowOrderType))
    throw new SolverError(
      422,
      "UNSUPPORTED_SETTLEMENT",
      `this request needs ${svmEscrowOrderType}, not in supportedTypes`,
    );
  const schemes = intent.originSubmission?.schemes;
  if (schemes && !schemes.includes("ed25519"))
    throw new SolverError(422, "UNSUPPORTED_SETTLEMENT", "a Solana deposit is signed with ed25519");
  return { requested, wanted, user, receiver, token, destination };
}
