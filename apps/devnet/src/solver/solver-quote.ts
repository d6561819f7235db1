import { randomBytes, randomUUID } from "node:crypto";
import {
  addressToBytes32,
  devnetErc20Abi,
  type MandateOutput,
  orderIdentifier,
  type StandardOrder,
  standardOrderToJson,
} from "@hub/chain";
import type { Hex } from "viem";
import { encodeInteropAddress } from "../aggregator/interop-address.js";
import type { OifOrder, QuotePreview, SolverQuote } from "../aggregator/oif-quote.js";
import { getQuoteRequestSchema, validateQuoteRequest } from "../aggregator/oif-quote-request.js";
import { permit2OrderPayload, receiveWithAuthorizationPayload } from "./order-payloads.js";
import { quoteAmounts, requireAmount } from "./quote-amounts.js";
import { rescaleAmount, solanaMandateOutput, solanaMetadataOutput } from "./solana-output-fill.js";
import { isSolanaSourceRequest } from "./solana-source-quote.js";
import { tokenDecimals, tokenDomain } from "./solver-assets.js";
import { SolverError } from "./solver-error.js";
import { type QuoteRequest, type QuoteRoute, quoteRoute, requireDestination } from "./solver-quote-route.js";
import type { SolverState, StoredQuote } from "./solver-state.js";

/** Quotes a same-asset bridge between two devnet chains (or to Solana), and keeps it for submission. */
export async function solverQuote(state: SolverState, body: unknown): Promise<{ quotes: SolverQuote[] }> {
  const parsed = getQuoteRequestSchema.safeParse(body);
  if (!parsed.success) throw new SolverError(400, "INVALID_REQUEST", parsed.error.message);
  const request = parsed.data;
  const problem = validateQuoteRequest(request);
  if (problem) throw new SolverError(400, "VALIDATION_ERROR", problem);
  if (isSolanaSourceRequest(request)) {
    if (!state.solanaSource) throw new SolverError(422, "UNSUPPORTED_ASSET", "this solver has no Solana key");
    return { quotes: [await state.solanaSource.quote(request)] };
  }
  const { intent } = request;
  const route = quoteRoute(state, request);
  const { amountIn, amountOut } = await priceQuote(state, route, intent.swapType);
  const orderType = orderTypeFor(request, route);
  await requireOutputLiquidity(state, route, amountOut);
  const now = state.nowSeconds();
  for (const [id, stale] of state.quotes) if (stale.validUntil < now) state.quotes.delete(id);
  const mandateOutput = mandateOutputOf(route, amountOut);
  const order = await standardOrderOf(state, route, amountIn, mandateOutput);
  const orderId = orderIdentifier(order, route.origin.chainId, route.origin.contracts.inputSettlerEscrow);
  const quoteId = randomUUID();
  const preview = quotePreview(route, amountIn, amountOut);
  const oifOrder =
    orderType === "oif-3009-v0"
      ? await receiveWithAuthorizationOrder(state, route, order, orderId, {
          amountIn,
          amountOut,
          mandateOutput,
        })
      : {
          type: "oif-escrow-v0" as const,
          payload: permit2OrderPayload(
            order,
            route.origin.contracts.permit2,
            route.origin.contracts.inputSettlerEscrow,
          ),
        };
  const stored: StoredQuote = {
    quoteId,
    orderType,
    order,
    orderId,
    validUntil: now + state.quoteValiditySeconds,
    origin: route.origin,
    ...(route.destination ? { destination: route.destination.chain } : {}),
    ...(route.solana ? { solana: route.solana } : {}),
    preview,
  };
  state.quotes.set(quoteId, stored);
  state.quotedOrders.set(orderId, stored);
  return {
    quotes: [
      {
        order: oifOrder,
        validUntil: now + state.quoteValiditySeconds,
        eta: state.etaSeconds,
        quoteId,
        provider: state.config.name ?? state.config.id,
        failureHandling: intent.failureHandling?.[0] ?? "refund-automatic",
        partialFill: false,
        preview,
      },
    ],
  };
}

function orderTypeFor(request: QuoteRequest, route: QuoteRoute): OifOrder["type"] {
  const schemes = request.intent.originSubmission?.schemes ?? [];
  const wants3009 = schemes.includes("eip3009") || schemes.includes("eip-3009");
  const orderType: OifOrder["type"] = wants3009 && route.kind === "usdc" ? "oif-3009-v0" : "oif-escrow-v0";
  if (!request.supportedTypes.includes(orderType))
    throw new SolverError(
      422,
      "UNSUPPORTED_SETTLEMENT",
      `this request needs ${orderType}, not in supportedTypes`,
    );
  return orderType;
}

async function requireOutputLiquidity(
  state: SolverState,
  route: QuoteRoute,
  amountOut: bigint,
): Promise<void> {
  const balance = route.solana
    ? await requireSolanaFiller(state).balance(route.solana.token.mint)
    : await state.client(requireDestination(route).chain.chainId).publicClient.readContract({
        address: requireDestination(route).token,
        abi: devnetErc20Abi,
        functionName: "balanceOf",
        args: [state.solverAddress],
      });
  if (balance < amountOut)
    throw new SolverError(422, "INSUFFICIENT_LIQUIDITY", "not enough output liquidity");
}

/** The order's terms: deadlines from the chains' block time, stretched by the fault knobs when set. */
async function standardOrderOf(
  state: SolverState,
  route: QuoteRoute,
  amountIn: bigint,
  mandateOutput: MandateOutput,
): Promise<StandardOrder> {
  // Deadlines are judged by block time, which runs ahead of the wall clock after a time travel.
  const chainNow = await state.chainSeconds(
    route.origin,
    ...(route.destination ? [route.destination.chain] : []),
  );
  // The fault knobs can stretch the deadlines (a far-deadline upstream).
  const knobs = state.config.faults?.get(state.config.id) ?? {};
  const fillDeadlineSeconds = knobs.fillDeadlineSeconds ?? state.fillDeadlineSeconds;
  const expiresSeconds = knobs.expiresSeconds ?? Math.max(state.expiresSeconds, fillDeadlineSeconds);
  return {
    user: route.user,
    nonce: BigInt(`0x${randomBytes(12).toString("hex")}`),
    originChainId: BigInt(route.origin.chainId),
    expires: chainNow + expiresSeconds,
    fillDeadline: chainNow + fillDeadlineSeconds,
    inputOracle: route.origin.contracts.committeeOracle,
    inputs: [[BigInt(route.origin.contracts[route.kind]), amountIn]],
    outputs: [mandateOutput],
  };
}

function quotePreview(route: QuoteRoute, amountIn: bigint, amountOut: bigint): QuotePreview {
  return {
    inputs: [
      {
        user: route.input.user.toLowerCase(),
        asset: route.input.asset.toLowerCase(),
        amount: amountIn.toString(),
      },
    ],
    outputs: [
      {
        receiver: route.output.receiver.toLowerCase(),
        asset: route.output.asset.toLowerCase(),
        amount: amountOut.toString(),
      },
    ],
  };
}

// Prices are in the input's units; a Solana mint may count in other decimals than the EVM token.
async function priceQuote(
  state: SolverState,
  route: QuoteRoute,
  swapType: QuoteRequest["intent"]["swapType"],
): Promise<{ amountIn: bigint; amountOut: bigint }> {
  const { input, output, solana } = route;
  const inputDecimals = solana
    ? await tokenDecimals(state, route.origin, route.origin.contracts[route.kind])
    : 0;
  const outputDecimals = solana ? solana.token.decimals : 0;
  const priced = quoteAmounts(
    state.config.spreadBps,
    swapType === "exact-output"
      ? {
          swapType: "exact-output",
          amountOut: rescaleAmount(BigInt(requireAmount(output.amount)), outputDecimals, inputDecimals, "up"),
        }
      : { swapType: "exact-input", amountIn: BigInt(requireAmount(input.amount)) },
  );
  const amountOut =
    swapType === "exact-output"
      ? BigInt(requireAmount(output.amount))
      : rescaleAmount(priced.amountOut, inputDecimals, outputDecimals, "down");
  if (amountOut === 0n) throw new SolverError(422, "INSUFFICIENT_LIQUIDITY", "amount too small");
  return { amountIn: priced.amountIn, amountOut };
}

function mandateOutputOf(route: QuoteRoute, amountOut: bigint): MandateOutput {
  if (route.solana) return solanaMandateOutput(route.solana, amountOut);
  const { chain, receiver, token } = requireDestination(route);
  return {
    oracle: addressToBytes32(chain.contracts.committeeOracle),
    settler: addressToBytes32(chain.contracts.outputSettler),
    chainId: BigInt(chain.chainId),
    token: addressToBytes32(token),
    amount: amountOut,
    recipient: addressToBytes32(receiver),
    callbackData: "0x",
    context: "0x",
  };
}

async function receiveWithAuthorizationOrder(
  state: SolverState,
  route: QuoteRoute,
  order: StandardOrder,
  orderId: Hex,
  amounts: { amountIn: bigint; amountOut: bigint; mandateOutput: MandateOutput },
): Promise<OifOrder> {
  const { origin } = route;
  const token = origin.contracts.usdc;
  return {
    type: "oif-3009-v0",
    payload: receiveWithAuthorizationPayload(
      order,
      orderId,
      token,
      await tokenDomain(state, origin, token),
      origin.contracts.inputSettlerEscrow,
    ),
    metadata: {
      user: encodeInteropAddress(origin.chainId, order.user),
      nonce: order.nonce.toString(),
      originChainId: origin.chainId,
      expires: order.expires,
      fillDeadline: order.fillDeadline,
      inputOracle: order.inputOracle.toLowerCase(),
      inputs: [
        {
          chainId: origin.chainId,
          asset: token.toLowerCase(),
          amount: amounts.amountIn.toString(),
          user: order.user,
        },
      ],
      outputs: [
        route.solana
          ? solanaMetadataOutput(amounts.mandateOutput)
          : evmMetadataOutput(route, amounts.amountOut),
      ],
      orderId,
      standardOrder: standardOrderToJson(order, { keepCase: true }),
    },
  };
}

function evmMetadataOutput(route: QuoteRoute, amountOut: bigint) {
  const { chain, receiver, token } = requireDestination(route);
  return {
    chainId: chain.chainId,
    asset: token.toLowerCase(),
    amount: amountOut.toString(),
    receiver,
    oracle: chain.contracts.committeeOracle.toLowerCase(),
    settler: chain.contracts.outputSettler.toLowerCase(),
  };
}

function requireSolanaFiller(state: SolverState): NonNullable<SolverState["solanaFiller"]> {
  if (!state.solanaFiller) throw new Error("a Solana output needs the solver's Solana key");
  return state.solanaFiller;
}
