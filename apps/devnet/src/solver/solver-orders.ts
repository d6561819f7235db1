import { inputSettlerEscrowAbi, standardOrderToJson } from "@hub/chain";
import type { Hex } from "viem";
import type { SolverOrderResponse, SolverPostOrderResponse } from "../aggregator/oif-order.js";
import { errorText } from "./error-text.js";
import { escrowOpenForSignature } from "./escrow-open-for-signature.js";
import { reportedStatus } from "./reported-status.js";
import { SolverError } from "./solver-error.js";
import type { OrderRecord, SolverState, StoredQuote } from "./solver-state.js";

/** Takes an order against one of the solver's own quotes: signed (the solver opens it) or announced. */
export async function submitSolverOrder(state: SolverState, body: unknown): Promise<SolverPostOrderResponse> {
  const { config } = state;
  if (config.faults?.get(config.id).refuseOrders)
    throw new SolverError(422, "SOLVER_REJECTED", `solver ${config.id} refuses new orders`);
  const request = (body ?? {}) as { quoteId?: unknown; signature?: unknown };
  if (typeof request.quoteId !== "string")
    throw new SolverError(
      400,
      "INVALID_REQUEST",
      "this solver only takes orders against its own quotes (quoteId)",
    );
  if (state.solanaSource?.owns(request.quoteId))
    return state.solanaSource.submit({ quoteId: request.quoteId, signature: request.signature });
  const stored = state.quotes.get(request.quoteId);
  if (!stored || state.nowSeconds() > stored.validUntil)
    throw new SolverError(400, "QUOTE_NOT_FOUND", `quote ${request.quoteId} not found or expired`);
  const key = stored.orderId.slice(2);
  const existing = state.orders.get(key);
  if (existing) return accepted(existing);

  const rawSignature = typeof request.signature === "string" ? request.signature : "";
  const signature =
    rawSignature !== "" && rawSignature !== "0x"
      ? await checkedOpenForSignature(state, stored, rawSignature)
      : undefined;
  const now = state.nowSeconds();
  const record: OrderRecord = {
    orderId: stored.orderId,
    quote: stored,
    ...(signature ? { signature } : {}),
    status: "created",
    createdAt: now,
    updatedAt: now,
  };
  state.orders.set(key, record);
  return accepted(record);
}

function accepted(record: OrderRecord): SolverPostOrderResponse {
  return {
    orderId: record.orderId.slice(2),
    status: "received",
    message: record.signature
      ? "Signed order accepted; the solver opens it on the origin chain"
      : "Registration accepted; the solver fills the order once its Open is seen on the origin chain",
    order: standardOrderToJson(record.quote.order, { keepCase: true }),
  };
}

// A signature the escrow's openFor would refuse is refused here, before the order is taken.
async function checkedOpenForSignature(
  state: SolverState,
  stored: StoredQuote,
  rawSignature: string,
): Promise<Hex> {
  const signature = escrowOpenForSignature(rawSignature, stored.orderType);
  if (!signature)
    throw new SolverError(
      422,
      "SOLVER_REJECTED",
      "signature must be 65 bytes, or 66 bytes starting with the order type's scheme byte",
    );
  const origin = state.client(stored.origin.chainId);
  try {
    await origin.publicClient.simulateContract({
      account: origin.walletClient.account,
      address: stored.origin.contracts.inputSettlerEscrow,
      abi: inputSettlerEscrowAbi,
      functionName: "openFor",
      args: [stored.order, stored.order.user, signature],
    });
  } catch (error) {
    throw new SolverError(422, "SOLVER_REJECTED", `openFor would revert: ${errorText(error)}`);
  }
  return signature;
}

/** The solver's view of one order, in the OIF order response shape, with the fault knobs' disguises. */
export function getSolverOrder(state: SolverState, orderId: string): SolverOrderResponse {
  const { config } = state;
  const record = state.orders.get(orderId.toLowerCase().replace(/^0x/, ""));
  if (!record) {
    const solanaOrder = state.solanaSource?.get(orderId);
    if (solanaOrder) return solanaOrder;
    throw new SolverError(400, "ORDER_NOT_FOUND", `order ${orderId} not found`);
  }
  const reported = reportedStatus(record.status, config.faults?.get(config.id) ?? {});
  if (reported.tookReportOnce) config.faults?.takeReportOnce(config.id);
  const { status, hideFill } = reported;
  const { quote: stored } = record;
  const fillStatus =
    typeof record.status === "object" && record.status.failed[0] === "Fill" ? "failed" : undefined;
  return {
    id: record.orderId,
    status,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
    quoteId: stored.quoteId,
    inputAmounts: stored.preview.inputs.map((i) => ({ asset: i.asset, amount: i.amount ?? "" })),
    outputAmounts: stored.preview.outputs.map((o) => ({ asset: o.asset, amount: o.amount ?? "" })),
    settlement: {
      type: "escrow",
      data: {
        raw_order_data: standardOrderToJson(stored.order, { keepCase: true }),
        signature: record.signature ?? null,
        nonce: stored.order.nonce.toString(),
        expires: stored.order.expires,
        open_transaction: record.openTx ?? null,
      },
    },
    fillTransaction:
      record.fillTx && !hideFill
        ? {
            hash: record.fillTx,
            status: fillStatus ?? (record.fillTimestamp !== undefined ? "executed" : "pending"),
            timestamp: record.fillTimestamp ?? record.updatedAt,
          }
        : null,
  };
}
