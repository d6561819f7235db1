import { HubError } from "./errors.js";
import { type SubmitOptions, type SubmittedOrder, submitWinner } from "./submit.js";
import { type TrackEvent, type TrackOptions, trackOrder } from "./track.js";
import { createTransport, type TransportOptions } from "./transport.js";
import type {
  Catalog,
  HubOrderStatus,
  OnchainFill,
  OnchainOrder,
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

/**
 * One method per route, named after its operationId in the contract's route table (the OpenAPI
 * document's), plus `submit` and `track`, which do a lane's whole registration and follow-up. The
 * earlier short names remain as deprecated aliases until 1.0.
 */
export interface HubClient {
  /** GET /catalog (getCatalog). */
  getCatalog(options?: CallOptions): Promise<Catalog>;
  /** POST /quote (createQuote): the best completable offer. */
  createQuote(request: QuoteInput, options?: CallOptions): Promise<QuoteWinner>;
  /** POST /quote/preview (previewQuote): every offer, signs nothing. */
  previewQuote(request: QuoteInput, options?: CallOptions): Promise<QuotePreview>;
  /** POST /quote/prepare (prepareQuote): the chosen provider's offer, ready to sign. */
  prepareQuote(request: PrepareInput, options?: CallOptions): Promise<PreparedQuote>;
  /**
   * Does what the winner's lane asks and registers it (POST /order/openfor, submitOpenForOrder; POST
   * /order, createOrder, on the open flow). An EvmWallet on the EVM lanes, a SolanaWallet on
   * `oif-escrow-nonevm`.
   */
  submit(winner: Winner, wallet: Wallet, options?: SubmitOptions): Promise<SubmittedOrder>;
  /** Follows a submitted order through the status views until a final state. */
  track(order: SubmittedOrder, options?: TrackOptions): AsyncGenerator<TrackEvent>;
  /** GET /order/{orderId}/status (getOrderStatus), by hubOrderId. */
  getOrderStatus(hubOrderId: string, options?: CallOptions): Promise<UpstreamOrderStatus>;
  /** GET /status/{orderId} (getHubStatus): the open flow's status. */
  getHubStatus(orderId: string, options?: CallOptions): Promise<HubOrderStatus>;
  /** GET /onchain/{orderId}/fill (getOnchainFill): the money facts. */
  getOnchainFill(onchainOrderId: string, options?: CallOptions): Promise<OnchainFill>;
  /** GET /onchain/{orderId}/order (getOnchainOrder): the order as the chain holds it. */
  getOnchainOrder(onchainOrderId: string, options?: CallOptions): Promise<OnchainOrder>;
  /** GET /onchain/tx/{chainDomain}/{txHash}/order (getOrderByTransaction). */
  getOrderByTransaction(chainDomain: string, txHash: string, options?: CallOptions): Promise<OnchainTxOrder>;
  /** GET /onchain/{orderId}/refund (getOnchainRefund). */
  getOnchainRefund(
    onchainOrderId: string,
    options?: CallOptions & { query?: Record<string, string> },
  ): Promise<OnchainRefund>;
  /** GET /orders (listOrders): one page of the subject's openFor orders; runs the canary check once per client first. */
  listOrders(options?: ListOrdersOptions): Promise<OrdersList>;

  /** @deprecated Use getCatalog. */
  catalog(options?: CallOptions): Promise<Catalog>;
  /** @deprecated Use createQuote. */
  quote(request: QuoteInput, options?: CallOptions): Promise<QuoteWinner>;
  /** @deprecated Use previewQuote. */
  preview(request: QuoteInput, options?: CallOptions): Promise<QuotePreview>;
  /** @deprecated Use prepareQuote. */
  prepare(request: PrepareInput, options?: CallOptions): Promise<PreparedQuote>;
  /** @deprecated Use getOrderStatus. */
  orderStatus(hubOrderId: string, options?: CallOptions): Promise<UpstreamOrderStatus>;
  /** @deprecated Use getHubStatus. */
  hubStatus(orderId: string, options?: CallOptions): Promise<HubOrderStatus>;
  /** @deprecated Use getOnchainFill. */
  fill(onchainOrderId: string, options?: CallOptions): Promise<OnchainFill>;
  /** @deprecated Use getOrderByTransaction. */
  orderByTransaction(chainDomain: string, txHash: string, options?: CallOptions): Promise<OnchainTxOrder>;
  /** @deprecated Use getOnchainRefund. */
  refund(
    onchainOrderId: string,
    options?: CallOptions & { query?: Record<string, string> },
  ): Promise<OnchainRefund>;
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

  const routes = {
    getCatalog: (o?: CallOptions) => get<Catalog>("/catalog", o),
    createQuote: (request: QuoteInput, o?: CallOptions) => post<QuoteWinner>("/quote", request, o),
    previewQuote: (request: QuoteInput, o?: CallOptions) => post<QuotePreview>("/quote/preview", request, o),
    prepareQuote: (request: PrepareInput, o?: CallOptions) =>
      post<PreparedQuote>("/quote/prepare", request, o),
    getOrderStatus: (hubOrderId: string, o?: CallOptions) =>
      get<UpstreamOrderStatus>(`/order/${id(hubOrderId)}/status`, o),
    getHubStatus: (orderId: string, o?: CallOptions) => get<HubOrderStatus>(`/status/${id(orderId)}`, o),
    getOnchainFill: (onchainOrderId: string, o?: CallOptions) =>
      get<OnchainFill>(`/onchain/${id(onchainOrderId)}/fill`, o),
    getOrderByTransaction: (chainDomain: string, txHash: string, o?: CallOptions) =>
      get<OnchainTxOrder>(`/onchain/tx/${id(chainDomain)}/${id(txHash)}/order`, o),
    getOnchainRefund: (onchainOrderId: string, o: CallOptions & { query?: Record<string, string> } = {}) =>
      call<OnchainRefund>({
        method: "GET",
        path: `/onchain/${id(onchainOrderId)}/refund`,
        query: o.query,
        signal: o.signal,
      }),
  };

  return {
    ...routes,
    getOnchainOrder: (onchainOrderId, o) => get<OnchainOrder>(`/onchain/${id(onchainOrderId)}/order`, o),
    submit: (winner, wallet, o) => submitWinner(call, winner, wallet, o),
    track: (order, o) => trackOrder(call, order, o),
    catalog: routes.getCatalog,
    quote: routes.createQuote,
    preview: routes.previewQuote,
    prepare: routes.prepareQuote,
    orderStatus: routes.getOrderStatus,
    hubStatus: routes.getHubStatus,
    fill: routes.getOnchainFill,
    orderByTransaction: routes.getOrderByTransaction,
    refund: routes.getOnchainRefund,
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
