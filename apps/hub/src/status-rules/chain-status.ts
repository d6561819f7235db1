export const chainStatuses = ["AWAITING_OPEN", "OPEN", "FILLED", "SETTLED", "EXPIRED", "REFUNDED"] as const;

export type ChainStatus = (typeof chainStatuses)[number];

/** The list entry's stop set: SETTLED and REFUNDED never change. EXPIRED is not terminal. */
export const chainTerminalStatuses: ReadonlySet<ChainStatus> = new Set(["SETTLED", "REFUNDED"]);

/**
 * One observation about an order. `outputsFilled`: every output of the (known) order now has an
 * OutputFilled that matches it exactly and lies at or before its fillDeadline; false while the order
 * is unknown. `fill-window-closed`: an output is still unfilled and its destination chain is indexed
 * past the order's fillDeadline, so no fill can complete the order any more.
 */
export type ChainTrigger =
  | { kind: "open-observed"; outputsFilled: boolean }
  | { kind: "fill-observed"; outputsFilled: boolean }
  | { kind: "fill-window-closed" }
  | { kind: "settle-observed" }
  | { kind: "refund-observed" };

/** chain.status moves; `undefined` is "no chain object". Unlisted pairs keep the status. */
export function nextChainStatus(
  from: ChainStatus | undefined,
  trigger: ChainTrigger,
): ChainStatus | undefined {
  if (from !== undefined && chainTerminalStatuses.has(from)) return from;
  switch (trigger.kind) {
    case "refund-observed":
      return "REFUNDED";
    // The escrow emits Finalised only after the oracle proved every output filled in time, so it
    // settles the order even when this index holds no fill (destination not configured, or lagging).
    case "settle-observed":
      return "SETTLED";
    case "open-observed":
      if (from === undefined || from === "AWAITING_OPEN") return trigger.outputsFilled ? "FILLED" : "OPEN";
      return from;
    case "fill-observed":
      if (from === undefined) return "AWAITING_OPEN";
      if (from === "OPEN" && trigger.outputsFilled) return "FILLED";
      return from;
    case "fill-window-closed":
      return from === "OPEN" ? "EXPIRED" : from;
  }
}
