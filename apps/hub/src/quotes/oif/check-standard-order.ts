import { addressToBytes32, type StandardOrder } from "@hub/chain";
import { QuoteRejection } from "../quote-rejection.js";
import type { QuoteRoute } from "../resolve-quote-route.js";

/** What the order and the quote's own validity say about time, in unix seconds. */
export interface QuoteTimes {
  validUntil: number | undefined;
  nowSeconds: number;
}

function same(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}

/**
 * Holds a StandardOrder rebuilt from an upstream answer to the request and the catalog: the user, the
 * origin chain, the source oracle, one input of the requested token and amount, one output to the
 * destination's settler and oracle paying the requested token to the recipient with no callback and no
 * context, and deadlines that are in the future and consistent. Throws at the first failure.
 */
export function checkStandardOrder(order: StandardOrder, route: QuoteRoute, times: QuoteTimes): void {
  const { source, destination } = route;
  if (!same(order.user, route.user)) {
    throw new QuoteRejection("user", `order user ${order.user} is not ${route.user}`);
  }
  if (order.originChainId !== BigInt(source.chain.chainId)) {
    throw new QuoteRejection("domain", `origin chain ${order.originChainId} is not ${source.chain.chainId}`);
  }
  if (!same(order.inputOracle, source.chain.inputOracle)) {
    throw new QuoteRejection("oracle", `input oracle ${order.inputOracle} is not the catalog's`);
  }
  if (order.inputs.length !== 1) throw new QuoteRejection("input", "the order must have exactly one input");
  const [token, inputAmount] = order.inputs[0]!;
  if (token !== BigInt(source.token)) {
    throw new QuoteRejection("input", `input token 0x${token.toString(16)} is not ${source.token}`);
  }
  if (order.outputs.length !== 1)
    throw new QuoteRejection("output", "the order must have exactly one output");
  const output = order.outputs[0]!;
  if (output.chainId !== BigInt(destination.chain.chainId)) {
    throw new QuoteRejection("output", `output chain ${output.chainId} is not ${destination.chain.chainId}`);
  }
  if (!same(output.token, addressToBytes32(destination.token))) {
    throw new QuoteRejection("output", `output token ${output.token} is not ${destination.token}`);
  }
  if (!same(output.settler, addressToBytes32(destination.chain.outputSettler as `0x${string}`))) {
    throw new QuoteRejection("settler", `output settler ${output.settler} is not the catalog's`);
  }
  if (!same(output.oracle, addressToBytes32(destination.chain.inputOracle as `0x${string}`))) {
    throw new QuoteRejection("oracle", `output oracle ${output.oracle} is not the catalog's`);
  }
  if (!same(output.recipient, addressToBytes32(route.recipient))) {
    throw new QuoteRejection("recipient", `output recipient ${output.recipient} is not ${route.recipient}`);
  }
  // A callback or a context (auction, exclusivity) changes what a fill means; these lanes take neither.
  if (output.callbackData !== "0x" || output.context !== "0x") {
    throw new QuoteRejection("output", "output carries callbackData or context");
  }
  if (route.swapType === "exact-input") {
    if (inputAmount !== route.amount) {
      throw new QuoteRejection("amount", `input amount ${inputAmount} is not the requested ${route.amount}`);
    }
    if (output.amount <= 0n) throw new QuoteRejection("amount", "output amount is not positive");
  } else {
    if (output.amount !== route.amount) {
      throw new QuoteRejection(
        "amount",
        `output amount ${output.amount} is not the requested ${route.amount}`,
      );
    }
    if (inputAmount <= 0n) throw new QuoteRejection("amount", "input amount is not positive");
  }
  const { validUntil, nowSeconds } = times;
  if (validUntil === undefined) throw new QuoteRejection("deadlines", "the quote has no validUntil");
  if (validUntil <= nowSeconds) throw new QuoteRejection("expired", `validUntil ${validUntil} has passed`);
  if (order.fillDeadline <= nowSeconds) {
    throw new QuoteRejection("expired", `fillDeadline ${order.fillDeadline} has passed`);
  }
  if (order.fillDeadline > order.expires) {
    throw new QuoteRejection(
      "deadlines",
      `fillDeadline ${order.fillDeadline} is after expires ${order.expires}`,
    );
  }
  if (validUntil > order.fillDeadline) {
    throw new QuoteRejection(
      "deadlines",
      `validUntil ${validUntil} is after fillDeadline ${order.fillDeadline}`,
    );
  }
}
