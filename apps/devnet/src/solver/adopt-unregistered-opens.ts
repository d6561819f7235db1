import { createLogCursor } from "../create-log-cursor.js";
import { openEvent, type SolverState } from "./solver-state.js";

/** Opens of quoted orders that no registration announced become orders the work loop fills. */
export async function adoptUnregisteredOpens(state: SolverState): Promise<void> {
  for (const chain of state.config.manifest.chains) {
    let cursor = state.openCursors.get(chain.chainId);
    if (!cursor) {
      cursor = createLogCursor({
        client: state.client(chain.chainId).publicClient,
        address: chain.contracts.inputSettlerEscrow,
        event: openEvent,
        fromBlock: BigInt(chain.deployBlock),
      });
      state.openCursors.set(chain.chainId, cursor);
    }
    const opens = await cursor.next();
    for (const open of opens) {
      const stored = state.quotedOrders.get(open.args.orderId);
      if (!stored || stored.origin.chainId !== chain.chainId) continue;
      state.quotedOrders.delete(stored.orderId);
      const key = stored.orderId.slice(2);
      if (state.orders.has(key)) continue;
      const now = state.nowSeconds();
      state.orders.set(key, {
        orderId: stored.orderId,
        quote: stored,
        status: "executing",
        openTx: open.transactionHash,
        createdAt: now,
        updatedAt: now,
      });
    }
    if (state.quotedOrders.size === 0) continue;
    const chainNow = await state.chainSeconds(chain);
    for (const [orderId, stored] of state.quotedOrders)
      if (stored.origin.chainId === chain.chainId && stored.order.fillDeadline < chainNow)
        state.quotedOrders.delete(orderId);
  }
}
