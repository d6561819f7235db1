import type { MandateOutput, StandardOrder } from "@hub/chain";
import { oifFormOf } from "../../chains/chain-families.js";
import type { ExpectedOutput } from "../../chains/chain-family.js";
import { QuoteRejection } from "../../quotes/quote-rejection.js";
import type { EvmSourceRoute, QuoteRoute } from "../../quotes/resolve-quote-route.js";

/** What the order and the quote's own validity say about time, in unix seconds. */
export interface QuoteTimes {
  validUntil: number | undefined;
  nowSeconds: number;
}

/** `a` equals, case aside, `lower` (already lowercase). */
function same(a: string, lower: string): boolean {
  return a === lower || a.toLowerCase() === lower;
}

/** The destination's output in its family's form (chain id, token, settler, oracle, recipient). */
function expectedOutputOf(route: QuoteRoute): ExpectedOutput {
  return oifFormOf(route.destination).expectedOutput(route.destination, route.recipient);
}

// A round vets every answer against one route: its expected output is derived once.
const expectedOutputs = new WeakMap<QuoteRoute, ExpectedOutput>();

function expectedOutput(route: QuoteRoute): ExpectedOutput {
  let expected = expectedOutputs.get(route);
  if (expected === undefined) {
    const { token, settler, oracle, recipient, ...rest } = expectedOutputOf(route);
    expected = {
      ...rest,
      token: token.toLowerCase() as `0x${string}`,
      settler: settler.toLowerCase() as `0x${string}`,
      oracle: oracle.toLowerCase() as `0x${string}`,
      recipient: recipient.toLowerCase() as `0x${string}`,
    };
    expectedOutputs.set(route, expected);
  }
  return expected;
}

/** A route's source as an order must name it: lowercase user and oracle, the token as a number. */
interface ExpectedSource {
  user: string;
  inputOracle: string;
  originChainId: bigint;
  /** Read on first use (the checks before it may refuse first). */
  token: bigint | undefined;
}

const expectedSources = new WeakMap<EvmSourceRoute, ExpectedSource>();

function expectedSource(route: EvmSourceRoute): ExpectedSource {
  let expected = expectedSources.get(route);
  if (expected === undefined) {
    expected = {
      user: route.user.toLowerCase(),
      inputOracle: route.source.chain.inputOracle.toLowerCase(),
      originChainId: BigInt(route.source.chain.chainId),
      token: undefined,
    };
    expectedSources.set(route, expected);
  }
  return expected;
}

/**
 * Holds an order's one output to the route: the destination chain, its token, settler and oracle, the
 * recipient, no callback and no context. Throws at the first failure.
 */
export function checkOutput(output: MandateOutput, route: QuoteRoute): void {
  const expected = expectedOutput(route);
  if (output.chainId !== expected.chainId) {
    throw new QuoteRejection("output", `output chain ${output.chainId} is not ${expected.names.chain}`);
  }
  if (!same(output.token, expected.token)) {
    throw new QuoteRejection("output", `output token ${output.token} is not ${expected.names.token}`);
  }
  if (!same(output.settler, expected.settler)) {
    throw new QuoteRejection("settler", `output settler ${output.settler} is not the catalog's`);
  }
  if (!same(output.oracle, expected.oracle)) {
    throw new QuoteRejection("oracle", `output oracle ${output.oracle} is not the catalog's`);
  }
  if (!same(output.recipient, expected.recipient)) {
    throw new QuoteRejection(
      "recipient",
      `output recipient ${output.recipient} is not ${expected.names.recipient}`,
    );
  }
  // A callback or a context (auction, exclusivity) changes what a fill means; these lanes take neither.
  if (output.callbackData !== "0x" || output.context !== "0x") {
    throw new QuoteRejection("output", "output carries callbackData or context");
  }
}

/** Exact-input: the input is the requested amount; exact-output: the output is. The other side is positive. */
export function checkAmounts(inputAmount: bigint, outputAmount: bigint, route: QuoteRoute): void {
  if (route.swapType === "exact-input") {
    if (inputAmount !== route.amount) {
      throw new QuoteRejection("amount", `input amount ${inputAmount} is not the requested ${route.amount}`);
    }
    if (outputAmount <= 0n) throw new QuoteRejection("amount", "output amount is not positive");
  } else {
    if (outputAmount !== route.amount) {
      throw new QuoteRejection(
        "amount",
        `output amount ${outputAmount} is not the requested ${route.amount}`,
      );
    }
    if (inputAmount <= 0n) throw new QuoteRejection("amount", "input amount is not positive");
  }
}

/** The quote is still valid and the fill deadline to come; validUntil ≤ fillDeadline ≤ expires. */
export function checkDeadlines(order: { fillDeadline: number; expires: number }, times: QuoteTimes): void {
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

/**
 * Holds a StandardOrder rebuilt from an upstream answer to the request and the catalog: the user, the
 * origin chain, the source oracle, one input of the requested token and amount, one output to the
 * destination's settler and oracle paying the requested token to the recipient with no callback and no
 * context, and deadlines that are in the future and consistent. Throws at the first failure.
 */
export function checkStandardOrder(order: StandardOrder, route: EvmSourceRoute, times: QuoteTimes): void {
  const { source } = route;
  const expected = expectedSource(route);
  if (!same(order.user, expected.user)) {
    throw new QuoteRejection("user", `order user ${order.user} is not ${route.user}`);
  }
  if (order.originChainId !== expected.originChainId) {
    throw new QuoteRejection("domain", `origin chain ${order.originChainId} is not ${source.chain.chainId}`);
  }
  if (!same(order.inputOracle, expected.inputOracle)) {
    throw new QuoteRejection("oracle", `input oracle ${order.inputOracle} is not the catalog's`);
  }
  if (order.inputs.length !== 1) throw new QuoteRejection("input", "the order must have exactly one input");
  const [token, inputAmount] = order.inputs[0]!;
  expected.token ??= BigInt(source.token);
  if (token !== expected.token) {
    throw new QuoteRejection("input", `input token 0x${token.toString(16)} is not ${source.token}`);
  }
  if (order.outputs.length !== 1)
    throw new QuoteRejection("output", "the order must have exactly one output");
  const output = order.outputs[0]!;
  checkOutput(output, route);
  checkAmounts(inputAmount, output.amount, route);
  checkDeadlines(order, times);
}
