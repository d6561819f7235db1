// The wire types, type-only from the contract: the SDK never restates a shape, so it cannot drift from
// what the hub answers. `import type` leaves nothing of the contract in the emitted JavaScript.
import type {
  PrepareQuoteRequest,
  PreparedQuote,
  QuoteRequest,
  QuoteWinner,
  UpstreamOrderStatus,
} from "@hub/contract";

export type {
  Catalog,
  ErrorBlock,
  ErrorCode,
  ExecutionTx,
  HubOrderStatus,
  OnchainFill,
  OnchainOrder,
  OnchainRefund,
  OnchainTxOrder,
  OpenForAck,
  OrderCreateAck,
  OrderListEntry,
  OrdersList,
  PreparedQuote,
  QuotePreview,
  QuoteWinner,
  UpstreamOrderStatus,
} from "@hub/contract";

/** A quote request as a caller writes it: swapType may be left out (exact-input). */
export type QuoteInput = Omit<QuoteRequest, "swapType"> & { swapType?: QuoteRequest["swapType"] };

/** A prepare request: the quote request, the caller's preparationId and the chosen provider. */
export type PrepareInput = Omit<PrepareQuoteRequest, "swapType"> & {
  swapType?: PrepareQuoteRequest["swapType"];
};

/** Any winner the SDK can submit: a /quote winner or a prepared quote. */
export type Winner = QuoteWinner | PreparedQuote;

/** The upstream view's state. */
export type UpstreamState = UpstreamOrderStatus["state"];
