import { randomBytes } from "node:crypto";
import {
  addressToBytes32,
  type DevnetChain,
  type DevnetManifest,
  decodeSolanaInteropAddress,
  type MandateOutput,
  solanaKeyToBytes32,
  solanaMessageDigest,
  solanaOutputHash,
} from "@hub/chain";
import { type Address, address } from "@solana/kit";
import { findAssociatedTokenPda, TOKEN_PROGRAM_ADDRESS } from "@solana-program/token";
import type { SvmEscrowPayload } from "../aggregator/oif-quote.js";
import type { GetQuoteRequest } from "../aggregator/oif-quote-request.js";
import type { SolanaChain } from "../solana/solana-chain.js";
import { compileSolanaDeposit, type SolanaEscrow, type SolanaEscrowOrder } from "../solana/solana-escrow.js";
import type { SolanaKeypair } from "../solana/solana-keypair.js";
import { quoteAmounts, requireAmount } from "./quote-amounts.js";
import { readSolanaSourceRequest } from "./solana-source-request.js";
import { SolverError } from "./solver-error.js";

export { svmEscrowOrderType } from "./solana-source-request.js";

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
  const { requested, wanted, user, receiver, token, destination } = readSolanaSourceRequest(
    request,
    manifest,
  );
  const { amountIn, amountOut } = priceSolanaSource(request, input.spreadBps, requested, wanted);
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
  const output = evmMandateOutput(destination, outputToken, amountOut, receiver.address);
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
  const deposit = await compileQuotedDeposit(solana, terms, orderId, token.decimals);
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
    payload: svmEscrowPayload({
      messageBytes,
      sender,
      feePayer: solana.keypair.address,
      escrowOrder,
      mint: token.mint,
      fillDeadline,
      output,
    }),
  };
}

type QuoteIntent = GetQuoteRequest["intent"];

function priceSolanaSource(
  request: GetQuoteRequest,
  spreadBps: number,
  requested: QuoteIntent["inputs"][number],
  wanted: QuoteIntent["outputs"][number],
): { amountIn: bigint; amountOut: bigint } {
  const { intent } = request;
  const { amountIn, amountOut } = quoteAmounts(
    spreadBps,
    intent.swapType === "exact-output"
      ? { swapType: "exact-output", amountOut: BigInt(requireAmount(wanted.amount)) }
      : { swapType: "exact-input", amountIn: BigInt(requireAmount(requested.amount)) },
  );
  if (amountOut === 0n) throw new SolverError(422, "INSUFFICIENT_LIQUIDITY", "amount too small");
  if (amountIn >= 2n ** 64n) throw new SolverError(400, "INVALID_REQUEST", "the input exceeds a u64");
  return { amountIn, amountOut };
}

function evmMandateOutput(
  destination: DevnetChain,
  outputToken: `0x${string}`,
  amountOut: bigint,
  receiver: `0x${string}`,
): MandateOutput {
  return {
    oracle: addressToBytes32(destination.contracts.committeeOracle),
    settler: addressToBytes32(destination.contracts.outputSettler),
    chainId: BigInt(destination.chainId),
    token: addressToBytes32(outputToken),
    amount: amountOut,
    recipient: addressToBytes32(receiver),
    callbackData: "0x",
    context: "0x",
  };
}

/** The deposit as a v0 message with the solver as fee payer, on a fresh blockhash. */
async function compileQuotedDeposit(
  solana: SolanaSourceDeps,
  terms: SolanaEscrowOrder,
  orderId: `0x${string}`,
  decimals: number,
) {
  const { user: sender, mint: mintAddress, amount: amountIn } = terms;
  const [source] = await findAssociatedTokenPda({
    owner: sender,
    mint: mintAddress,
    tokenProgram: TOKEN_PROGRAM_ADDRESS,
  });
  return compileSolanaDeposit({
    user: sender,
    source,
    mint: mintAddress,
    decimals,
    vault: await solana.escrow.vault(mintAddress),
    amount: amountIn,
    orderId,
    feePayer: solana.keypair.address,
    lifetime: solana.chain.latestBlockhash(),
  });
}

/** The quote's order as the OIF answer carries it (docs/decisions/solana-lane.md), every number a string. */
function svmEscrowPayload(quoted: {
  messageBytes: Uint8Array;
  sender: Address;
  feePayer: Address;
  escrowOrder: SolanaEscrowOrder & { orderId: `0x${string}` };
  mint: string;
  fillDeadline: number;
  output: MandateOutput;
}): SvmEscrowPayload {
  const { messageBytes, sender, escrowOrder, fillDeadline, output } = quoted;
  return {
    signatureType: "ed25519",
    transactionMessage: Buffer.from(messageBytes).toString("base64"),
    digest: solanaMessageDigest(messageBytes),
    sender,
    feePayer: quoted.feePayer,
    escrowOrder: {
      user: sender,
      mint: quoted.mint,
      amount: escrowOrder.amount.toString(),
      expires: escrowOrder.expires,
      nonce: escrowOrder.nonce.toString(),
      outputHash: escrowOrder.outputHash,
      orderId: escrowOrder.orderId,
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
  };
}

/** The bytes32 a fill names as its solver on this lane: the solver's Solana key, whom the release pays. */
export function solanaFillerData(keypair: SolanaKeypair): `0x${string}` {
  return solanaKeyToBytes32(keypair.address);
}
