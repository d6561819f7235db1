import { maxUint256 } from "viem";
import { bridgeOutputAmount } from "../bridge-output-amount.js";
import { bridgeQuote } from "./bridge-quote.js";
import { ExternalAggregatorError } from "./external-aggregator-error.js";
import { type ExternalAggregatorState, issueQuoteFields } from "./external-aggregator-state.js";
import { type ExternalQuote, type ExternalQuoteRequest, externalExecutionClasses } from "./external-quote.js";
import { declaredAsset, parseAsset } from "./quoted-asset.js";

/** The destination amount at a 1:1 rate between two tokens of different decimals (rounded down). */
function atParity(amount: bigint, fromDecimals: number, toDecimals: number): bigint {
  if (toDecimals >= fromDecimals) return amount * 10n ** BigInt(toDecimals - fromDecimals);
  return amount / 10n ** BigInt(fromDecimals - toDecimals);
}

/** Prices a request: a bridge across chains, a transfer of one token, a solver-swap of two; keeps the quote. */
export async function quoteExternal(
  state: ExternalAggregatorState,
  request: ExternalQuoteRequest,
): Promise<ExternalQuote> {
  const source = parseAsset(request.sourceAsset);
  const destination = parseAsset(request.destinationAsset);
  const from = declaredAsset(state.catalog, source);
  const to = declaredAsset(state.catalog, destination);
  if (!from || !to)
    throw new ExternalAggregatorError(400, "NO_ROUTE", "only declared tokens of devnet chains are quoted");
  const amountIn = BigInt(request.amount);
  if (amountIn > maxUint256)
    throw new ExternalAggregatorError(400, "VALIDATION_ERROR", "amount: does not fit in uint256");

  let quote: ExternalQuote;
  if (source.chainId !== destination.chainId) {
    quote = await bridgeQuote(state, request, source, destination, amountIn, from.asset.symbol);
  } else if (from.asset.key === to.asset.key) {
    quote = {
      ...issueQuoteFields(state, request, amountIn, amountIn, 0n),
      kind: "transfer",
      executionClass: externalExecutionClasses.transfer,
      feeBps: 0,
    };
  } else {
    // A devnet solver-swap trades at parity, scaled by the two tokens' decimals, less the fee.
    const atRate = atParity(amountIn, from.asset.decimals, to.asset.decimals);
    const amountOut = bridgeOutputAmount(atRate, state.feeBps);
    if (amountOut <= 0n)
      throw new ExternalAggregatorError(400, "NO_ROUTE", "the amount does not cover the fee");
    quote = {
      ...issueQuoteFields(state, request, amountIn, amountOut, atRate - amountOut),
      kind: "solver-swap",
      executionClass: externalExecutionClasses["solver-swap"],
      feeBps: state.feeBps,
    };
  }
  state.quotes.set(quote.quoteId, quote);
  return quote;
}
