import type { OrderStatus, TransactionType } from "../aggregator/oif-order.js";

/** What a solver's order record carries of its state machine. */
export interface MovingOrder {
  status: OrderStatus;
  updatedAt: number;
}

/** Whether the order is done (finalized, refunded or failed): its state machine moves no further. */
export const terminal = (status: OrderStatus): boolean =>
  status === "finalized" || status === "refunded" || typeof status === "object";

/**
 * The state machine's two moves, stamped with the solver's clock: `move` to a status, `fail` at a
 * stage with a reason. Both answer true, so a step can `return move(...)` to say it moved.
 */
export function orderMoves(nowSeconds: () => number): {
  move(record: MovingOrder, status: OrderStatus): true;
  fail(record: MovingOrder, stage: TransactionType, message: string): true;
} {
  function move(record: MovingOrder, status: OrderStatus): true {
    record.status = status;
    record.updatedAt = nowSeconds();
    return true;
  }
  function fail(record: MovingOrder, stage: TransactionType, message: string): true {
    return move(record, { failed: [stage, message] });
  }
  return { move, fail };
}
