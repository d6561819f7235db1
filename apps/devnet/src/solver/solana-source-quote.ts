import { randomBytes } from "node:crypto";
import {
  addressToBytes32,
  type DevnetChain,
  type DevnetManifest,
  type DevnetSolanaToken,
  decodeSolanaInteropAddress,
  type MandateOutput,
  solanaKeyToBytes32,
  solanaMessageDigest,
  solanaOutputHash,
} from "@hub/chain";
import { type Address, address } from "@solana/kit";
import { findAssociatedTokenPda, TOKEN_PROGRAM_ADDRESS } from "@solana-program/token";
import { decodeInteropAddress } from "../aggregator/interop-address.js";
import type { SvmEscrowPayload } from "../aggregator/oif-quote.js";
import type { GetQuoteRequest } from "../aggregator/oif-quote-request.js";
import type { SolanaChain } from "../solana/solana-chain.js";
import { compileSolanaDeposit, type SolanaEscrow, type SolanaEscrowOrder } from "../solana/solana-escrow.js";
import type { SolanaKeypair } from "../solana/solana-keypair.js";
import { quoteAmounts } from "./quote-amounts.js";
import { SolverError } from "./solver-error.js";

export const svmEscrowOrderType = "oif-svm-escrow-v0";

/** What a solver needs to take orders whose input the Solana escrow holds. */
export interface SolanaSourceDeps {
  chain: SolanaChain;
  escrow: SolanaEscrow;
  /** The solver's own Solana key: the fee payer of every deposit it quotes, and who a release pays. */
  keypair: SolanaKeypair;
}

/** A quoted Solana → EVM order: the compiled deposit, its escrow terms and the EVM output. */
export interface SolanaSourceQuote {
  quoteId: string;
  validUntil: number;
  sender: Address;
  escrowOrder: SolanaEscrowOrder & { orderId: `0x${string}` };
  fillDeadline: number;
  output: MandateOutput;
  destination: DevnetChain;
  deposit: ReturnType<typeof compileSolanaDeposit>;
  payload: SvmEscrowPayload;
}

/** True when the request's input is a Solana account (chain type 0x0002): the Solana lane's request. */
export function isSolanaSourceRequest(request: GetQuoteRequest): boolean {
  return request.intent.inputs.some((input) => decodeSolanaInteropAddress(input.asset) !== undefined);
}

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
 * Prices and builds an `oif-svm-escrow-v0` quote (docs/decisions/solana-lane.md): registers the
 * escrow order and compiles the deposit message with the solver as fee payer on a fresh blockhash.
 * `outputLiquidity` answers the solver's balance of the output token on the destination;
 * `destinationSeconds` the destination's latest block time.
 */
export async function buildSolanaSourceQuote(input: {
  request: GetQuoteRequest;
  manifest: DevnetManifest;
  solana: SolanaSourceDeps;
  spreadBps: number;
  quoteId: string;
  nowSeconds: number;
  quoteValiditySeconds: number;
  fillDeadlineSeconds: number;
  expiresSeconds: number;
  destinationSeconds(chain: DevnetChain): Promise<number>;
  outputLiquidity(chain: DevnetChain, token: `0x${string}`): Promise<bigint>;
}): Promise<SolanaSourceQuote> {
  const { request, manifest, solana } = input;
  const { intent } = request;
  const solanaChain = manifest.solana;
  if (!solanaChain) throw new SolverError(422, "UNSUPPORTED_ASSET", "this devnet has no Solana chain");
  if (intent.inputs.length !== 1 || intent.outputs.length !== 1)
    throw new SolverError(400, "INVALID_REQUEST", "exactly one input and one output are supported");
  const requested = intent.inputs[0]!;
  const wanted = intent.outputs[0]!;
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

  const { amountIn, amountOut } = quoteAmounts(
    input.spreadBps,
    intent.swapType === "exact-output"
      ? { swapType: "exact-output", amountOut: BigInt(wanted.amount!) }
      : { swapType: "exact-input", amountIn: BigInt(requested.amount!) },
  );
  if (amountOut === 0n) throw new SolverError(422, "INSUFFICIENT_LIQUIDITY", "amount too small");
  if (amountIn >= 2n ** 64n) throw new SolverError(400, "INVALID_REQUEST", "the input exceeds a u64");
  const outputToken = destination.contracts.usdc;
  if ((await input.outputLiquidity(destination, outputToken)) < amountOut)
    throw new SolverError(422, "INSUFFICIENT_LIQUIDITY", "not enough output liquidity");

  // The fill deadline is judged by the destination's block time, the expiry by the Solana chain's clock.
  const chainNow = Math.max(
    input.nowSeconds,
    solana.chain.unixTimestamp(),
    await input.destinationSeconds(destination),
  );
  const fillDeadline = chainNow + input.fillDeadlineSeconds;
  const output: MandateOutput = {
    oracle: addressToBytes32(destination.contracts.committeeOracle),
    settler: addressToBytes32(destination.contracts.outputSettler),
    chainId: BigInt(destination.chainId),
    token: addressToBytes32(outputToken),
    amount: amountOut,
    recipient: addressToBytes32(receiver.address),
    callbackData: "0x",
    context: "0x",
  };
  const sender = address(user.address);
  const mintAddress = address(token.mint);
  const terms: SolanaEscrowOrder = {
    user: sender,
    mint: mintAddress,
    amount: amountIn,
    expires: chainNow + input.expiresSeconds,
    nonce: randomBytes(8).readBigUInt64LE(),
    outputHash: solanaOutputHash(fillDeadline, output),
  };
  const orderId = solana.escrow.register(terms);
  const [source] = await findAssociatedTokenPda({
    owner: sender,
    mint: mintAddress,
    tokenProgram: TOKEN_PROGRAM_ADDRESS,
  });
  const deposit = compileSolanaDeposit({
    user: sender,
    source,
    mint: mintAddress,
    decimals: token.decimals,
    vault: await solana.escrow.vault(mintAddress),
    amount: amountIn,
    orderId,
    feePayer: solana.keypair.address,
    lifetime: solana.chain.latestBlockhash(),
  });
  const messageBytes = Uint8Array.from(deposit.messageBytes);
  const escrowOrder = { ...terms, orderId };
  return {
    quoteId: input.quoteId,
    validUntil: Math.min(input.nowSeconds + input.quoteValiditySeconds, fillDeadline),
    sender,
    escrowOrder,
    fillDeadline,
    output,
    destination,
    deposit,
    payload: {
      signatureType: "ed25519",
      transactionMessage: Buffer.from(messageBytes).toString("base64"),
      digest: solanaMessageDigest(messageBytes),
      sender,
      feePayer: solana.keypair.address,
      escrowOrder: {
        user: sender,
        mint: token.mint,
        amount: amountIn.toString(),
        expires: escrowOrder.expires,
        nonce: escrowOrder.nonce.toString(),
        outputHash: escrowOrder.outputHash,
        orderId,
      },
      fillDeadline,
      output: {
        oracle: output.oracle,
        settler: output.settler,
        chainId: output.chainId.toString(),
        token: output.token,
        amount: output.amount.toString(),
        recipient: output.recipient,
        callbackData: "0x",
        context: "0x",
      },
    },
  };
}

/** The bytes32 a fill names as its solver on this lane: the solver's Solana key, whom the release pays. */
export function solanaFillerData(keypair: SolanaKeypair): `0x${string}` {
  return solanaKeyToBytes32(keypair.address);
}
