import type { SolverOrderResponse } from "../aggregator/oif-order.js";
import { reportedStatus } from "./reported-status.js";
import type { SolanaSourceState } from "./solana-source-state.js";

/** The order's status read, or undefined when the id is not a Solana-source order of this solver. */
export function getSolanaSourceOrder(
  state: SolanaSourceState,
  orderId: string,
): SolverOrderResponse | undefined {
  const { config } = state;
  const record = state.orders.get(orderId.toLowerCase().replace(/^0x/, ""));
  if (!record) return undefined;
  const reported = reportedStatus(record.status, config.faults?.get(config.id) ?? {});
  if (reported.tookReportOnce) config.faults?.takeReportOnce(config.id);
  const { quote: stored } = record;
  const fillStatus =
    typeof record.status === "object" && record.status.failed[0] === "Fill" ? "failed" : undefined;
  return {
    id: stored.escrowOrder.orderId,
    status: reported.status,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
    quoteId: stored.quoteId,
    inputAmounts: stored.preview.inputs.map((i) => ({ asset: i.asset, amount: i.amount })),
    outputAmounts: stored.preview.outputs.map((o) => ({ asset: o.asset, amount: o.amount })),
    settlement: {
      type: "escrow",
      data: {
        escrow_order: stored.payload.escrowOrder,
        fill_deadline: stored.fillDeadline,
        signature: record.envelope,
        open_transaction: record.openTx ?? null,
        release_transaction: record.claimTx ?? null,
        expires: stored.escrowOrder.expires,
      },
    },
    fillTransaction:
      record.fillTx && !reported.hideFill
        ? {
            hash: record.fillTx,
            status: fillStatus ?? (record.fillTimestamp !== undefined ? "executed" : "pending"),
            timestamp: record.fillTimestamp ?? record.updatedAt,
          }
        : null,
  };
}
