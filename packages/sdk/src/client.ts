import { HubError } from "./errors.js";
import { type SubmitOptions, type SubmittedOrder, submitWinner } from "./submit.js";
import { type TrackEvent, type TrackOptions, trackOrder } from "./track.js";
import { createTransport, type TransportOptions } from "./transport.js";
import type {
  Catalog,
  HubOrderStatus,
  OnchainFill,
  OnchainRefund,
  OnchainTxOrder,
  OrdersList,
  PreparedQuote,
  PrepareInput,
  QuoteInput,
  QuotePreview,
  QuoteWinner,
  UpstreamOrderStatus,
  Winner,
} from "./types.js";
import type { Wallet } from "./solana-wallet.js";

export type HubClientOptions = TransportOptions;

/** Options every call takes. */
export interface CallOptions {
  signal?: AbortSignal;
}

export interface ListOrdersOptions extends CallOptions {
  cursor?: string;
  /** Page size, 1 to 100 (the hub's default 50). */
  limit?: number;
}

export interface HubClient {
  catalog(options?: CallOptions): Promise<Catalog>;
  quote(request: QuoteInput, options?: CallOptions): Promise<QuoteWinner>;
  preview(request: QuoteInput, options?: CallOptions): Promise<QuotePreview>;
  prepare(request: PrepareInput, options?: CallOptions): Promise<PreparedQuote>;
  /** An EvmWallet on the EVM lanes, a SolanaWallet on `oif-escrow-nonevm`. */
  submit(winner: Winner, wallet: Wallet, options?: SubmitOptions): Promise<SubmittedOrder>;
  track(order: SubmittedOrder, options?: TrackOptions): AsyncGenerator<TrackEvent>;
  orderStatus(hubOrderId: string, options?: CallOptions): Promise<UpstreamOrderStatus>;
  hubStatus(orderId: string, options?: CallOptions): Promise<HubOrderStatus>;
  fill(onchainOrderId: string, options?: CallOptions): Promise<OnchainFill>;
  orderByTransaction(chainDomain: string, txHash: string, options?: CallOptions): Promise<OnchainTxOrder>;
  refund(
    onchainOrderId: string,
    options?: CallOptions & { query?: Record<string, string> },
  ): Promise<OnchainRefund>;
  /** One page of the subject's openFor orders; runs the canary check once per client first. */
  listOrders(options?: ListOrdersOptions): Promise<OrdersList>;
}

/** A client for one credential and one subject. */
export function createHubClient(options: HubClientOptions): HubClient {
  const call = createTransport(options);
  const get = <T>(path: string, { signal }: CallOptions = {}) => call<T>({ method: "GET", path, signal });
  const post = <T>(path: string, body: object, { signal }: CallOptions = {}) =>
    call<T>({ method: "POST", path, body, signal, quote: true });
  const id = encodeURIComponent;

  let canary: Promise<void> | undefined;
  /** The spec's scoping check: a fresh `canary-` subject must list no orders and be echoed; else serve no history. */
  async function canaryCheck(signal: AbortSignal | undefined): Promise<void> {
    const subject = `canary-${crypto.randomUUID()}`;
    const page = await call<OrdersList>({ method: "GET", path: "/orders", subject, signal });
    if (page.subject !== subject || page.orders.length > 0) {
      throw new HubError({
        code: "ESDK_CANARY",
        status: 0,
        message: `the scoping check failed: a fresh subject listed ${page.orders.length} orders under subject ${JSON.stringify(page.subject)}; serve no history`,
      });
    }
  }

  return {
    catalog: (o) => get<Catalog>("/catalog", o),
    quote: (request, o) => post<QuoteWinner>("/quote", request, o),
    preview: (request, o) => post<QuotePreview>("/quote/preview", request, o),
    prepare: (request, o) => post<PreparedQuote>("/quote/prepare", request, o),
    submit: (winner, wallet, o) => submitWinner(call, winner, wallet, o),
    track: (order, o) => trackOrder(call, order, o),
    orderStatus: (hubOrderId, o) => get<UpstreamOrderStatus>(`/order/${id(hubOrderId)}/status`, o),
    hubStatus: (orderId, o) => get<HubOrderStatus>(`/status/${id(orderId)}`, o),
    fill: (onchainOrderId, o) => get<OnchainFill>(`/onchain/${id(onchainOrderId)}/fill`, o),
    orderByTransaction: (chainDomain, txHash, o) =>
      get<OnchainTxOrder>(`/onchain/tx/${id(chainDomain)}/${id(txHash)}/order`, o),
    refund: (onchainOrderId, o = {}) =>
      call<OnchainRefund>({
        method: "GET",
        path: `/onchain/${id(onchainOrderId)}/refund`,
        query: o.query,
        signal: o.signal,
      }),
    async listOrders(o = {}) {
      canary ??= canaryCheck(o.signal).catch((error) => {
        canary = undefined;
        throw error;
      });
      await canary;
      const page = await call<OrdersList>({
        method: "GET",
        path: "/orders",
        query: { cursor: o.cursor, limit: o.limit === undefined ? undefined : String(o.limit) },
        signal: o.signal,
      });
      if (page.subject !== options.subject) {
        throw new HubError({
          code: "ESDK_SUBJECT_MISMATCH",
          status: 0,
          message: `the page echoes subject ${JSON.stringify(page.subject)}, not the one sent: refused`,
        });
      }
      return page;
    },
  };
}
