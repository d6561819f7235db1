import { randomUUID } from "node:crypto";
import { devnetErc20Abi } from "@hub/chain";
import type { SolverQuote } from "../aggregator/oif-quote.js";
import type { GetQuoteRequest } from "../aggregator/oif-quote-request.js";
import { blockSeconds, type SolanaSourcePreview, type SolanaSourceState } from "./solana-source-state.js";
import { buildSolanaSourceQuote, svmEscrowOrderType } from "./solana-source-quote.js";
import { SolverError } from "./solver-error.js";

/** Quotes an `oif-svm-escrow-v0` order and keeps the quote for its submission. */
export async function quoteSolanaSource(
  state: SolanaSourceState,
  request: GetQuoteRequest,
): Promise<SolverQuote> {
  const { config, quotes } = state;
  const now = state.nowSeconds();
  for (const [id, stale] of quotes) if (stale.validUntil < now) quotes.delete(id);
  const built = await buildSolanaSourceQuote({
    request,
    manifest: config.manifest,
    solana: config.solana,
    spreadBps: config.spreadBps,
    quoteId: randomUUID(),
    nowSeconds: now,
    quoteValiditySeconds: config.quoteValiditySeconds,
    fillDeadlineSeconds: config.fillDeadlineSeconds,
    expiresSeconds: config.expiresSeconds,
    destinationSeconds: (chain) => blockSeconds(state, chain),
    outputLiquidity: (chain, token) =>
      config.client(chain.chainId).publicClient.readContract({
        address: token,
        abi: devnetErc20Abi,
        functionName: "balanceOf",
        args: [config.client(chain.chainId).walletClient.account.address],
      }),
  });
  const { intent } = request;
  const [input] = intent.inputs;
  const [output] = intent.outputs;
  if (!input || !output)
    throw new SolverError(400, "INVALID_REQUEST", "exactly one input and one output are supported");
  const preview: SolanaSourcePreview = {
    inputs: [
      {
        user: input.user.toLowerCase(),
        asset: input.asset.toLowerCase(),
        amount: built.escrowOrder.amount.toString(),
      },
    ],
    outputs: [
      {
        receiver: output.receiver.toLowerCase(),
        asset: output.asset.toLowerCase(),
        amount: built.output.amount.toString(),
      },
    ],
  };
  quotes.set(built.quoteId, { ...built, preview });
  return {
    order: { type: svmEscrowOrderType, payload: built.payload },
    validUntil: built.validUntil,
    eta: config.etaSeconds,
    quoteId: built.quoteId,
    provider: config.name ?? config.id,
    failureHandling: intent.failureHandling?.[0] ?? "refund-automatic",
    partialFill: false,
    preview,
  };
}
