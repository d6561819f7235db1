import { randomUUID } from "node:crypto";
import { type Clock, systemClock } from "@hub/clock";
import { AggregatorError } from "./aggregator-error.js";
import { computeIntegrityChecksum, verifyIntegrityChecksum } from "./integrity-checksum.js";
import {
  type AssetAmount,
  isFinalStatus,
  type OrderResponse,
  type PostOrderRequest,
  type SolverOrderResponse,
} from "./oif-order.js";
import { type QuoteResponse, type QuotesResponse, solverQuotesResponseSchema } from "./oif-quote.js";
import {
  type AggregatorQuoteRequest,
  type GetQuoteRequest,
  validateQuoteRequest,
} from "./oif-quote-request.js";
import { createHttpSolverClient, type SolverClient, SolverHttpError } from "./solver-client.js";

export interface AggregatorSolverConfig {
  solverId: string;
  name?: string;
  description?: string;
  /** The solver's OIF API root, ending in /api/v1; a function when the port is known only after listen. */
  baseUrl: string | (() => string);
}

export interface AggregatorConfig {
  solvers: AggregatorSolverConfig[];
  /** Key of the quote integrity HMAC. */
  integritySecret: string;
  /** Per-solver quote timeout (reference default 5000). */
  solverTimeoutMs?: number;
  /** Timeout of a whole quote round (reference default 10000). */
  globalTimeoutMs?: number;
  /** Timeout of forwarding an order to its solver. */
  orderTimeoutMs?: number;
  /** Timeout of one status refresh from the solver (reference 5000). */
  refreshTimeoutMs?: number;
  clock?: Clock;
}

export interface SupportedAsset {
  address: string;
  /** A decimal string for a Solana chain, whose OIF chain id is 256 bits (the solver's `chain_id`). */
  chainId: number | string;
  symbol: string;
  name: string;
  decimals: number;
}

export interface SolverInfo {
  solverId: string;
  adapterId: "oif-v1";
  name?: string;
  description?: string;
  endpoint: string;
  status: "active" | "disabled";
  supportedAssets: { type: "assets"; assets: SupportedAsset[]; source: "autoDiscovered" };
  createdAt: string;
  lastSeen?: string;
}

export interface AggregatorHealth {
  status: "healthy" | "degraded";
  version: string;
  solvers: {
    total: number;
    active: number;
    inactive: number;
    healthy: number;
    unhealthy: number;
    healthDetails: Record<string, boolean>;
  };
  storage: { healthy: boolean; backend: "memory" };
}

export interface Aggregator {
  getQuotes(request: AggregatorQuoteRequest): Promise<QuotesResponse>;
  submitOrder(request: PostOrderRequest): Promise<OrderResponse>;
  getOrder(orderId: string): Promise<OrderResponse>;
  listSolvers(page?: number, pageSize?: number): Promise<{ solvers: SolverInfo[]; totalSolvers: number }>;
  getSolver(solverId: string): Promise<SolverInfo>;
  health(): Promise<AggregatorHealth>;
}

interface SolverEntry {
  config: AggregatorSolverConfig;
  client: SolverClient;
  createdAt: string;
  lastSeen?: string;
  assets: SupportedAsset[];
}

interface StoredOrder {
  solverId: string;
  response: OrderResponse;
}

const bounds = { solverMin: 100, solverMax: 30_000, globalMax: 60_000 };

function normaliseOrderId(id: string): string {
  return id.toLowerCase().replace(/^0x/, "");
}

function isAbort(error: unknown): boolean {
  return error instanceof Error && (error.name === "AbortError" || error.name === "TimeoutError");
}

function parseAssets(body: unknown): SupportedAsset[] {
  const networks = (body as { networks?: Record<string, { chain_id?: number | string; assets?: unknown[] }> })
    ?.networks;
  if (!networks) return [];
  const assets: SupportedAsset[] = [];
  for (const network of Object.values(networks)) {
    for (const raw of network.assets ?? []) {
      const asset = raw as { address?: string; symbol?: string; name?: string; decimals?: number };
      if (!asset.address || network.chain_id === undefined) continue;
      assets.push({
        address: asset.address,
        chainId: network.chain_id,
        symbol: asset.symbol ?? "",
        name: asset.name ?? asset.symbol ?? "",
        decimals: asset.decimals ?? 18,
      });
    }
  }
  return assets;
}

/** The devnet's OIF aggregator: fans quotes out to its solvers, signs them, forwards orders and refreshes status. */
export function createAggregator(config: AggregatorConfig): Aggregator {
  const clock = config.clock ?? systemClock;
  const solverTimeoutMs = config.solverTimeoutMs ?? 5000;
  const globalTimeoutMs = config.globalTimeoutMs ?? 10_000;
  const orderTimeoutMs = config.orderTimeoutMs ?? 10_000;
  const refreshTimeoutMs = config.refreshTimeoutMs ?? 5000;
  const iso = () => new Date(clock.now()).toISOString();
  const solvers = new Map<string, SolverEntry>(
    config.solvers.map((s) => [
      s.solverId,
      { config: s, client: createHttpSolverClient({ baseUrl: s.baseUrl }), createdAt: iso(), assets: [] },
    ]),
  );
  const orders = new Map<string, StoredOrder>();

  function solverOrThrow(solverId: string): SolverEntry {
    const entry = solvers.get(solverId);
    if (!entry) throw new AggregatorError(404, "SOLVER_NOT_FOUND", `Solver not found: ${solverId}`);
    return entry;
  }

  async function refreshAssets(entry: SolverEntry): Promise<boolean> {
    try {
      entry.assets = parseAssets(await entry.client.getAssets(AbortSignal.timeout(2000)));
      entry.lastSeen = iso();
      return true;
    } catch {
      return false;
    }
  }

  function solverInfo(entry: SolverEntry): SolverInfo {
    return {
      solverId: entry.config.solverId,
      adapterId: "oif-v1",
      ...(entry.config.name ? { name: entry.config.name } : {}),
      ...(entry.config.description ? { description: entry.config.description } : {}),
      endpoint: entry.client.endpoint(),
      status: "active",
      supportedAssets: { type: "assets", assets: entry.assets, source: "autoDiscovered" },
      createdAt: entry.createdAt,
      ...(entry.lastSeen ? { lastSeen: entry.lastSeen } : {}),
    };
  }

  async function getQuotes(request: AggregatorQuoteRequest): Promise<QuotesResponse> {
    const started = clock.now();
    const problem = validateQuoteRequest(request);
    if (problem) throw new AggregatorError(400, "VALIDATION_ERROR", `Invalid request: ${problem}`);
    const options = request.solverOptions ?? {};
    // A request naming only the round's timeout shortens the per-solver default to fit inside it.
    const perSolverMs =
      options.solverTimeout ?? Math.min(solverTimeoutMs, options.timeout ?? solverTimeoutMs);
    const wholeMs = options.timeout ?? Math.max(globalTimeoutMs, perSolverMs);
    if (perSolverMs < bounds.solverMin || perSolverMs > bounds.solverMax)
      throw new AggregatorError(
        400,
        "VALIDATION_ERROR",
        "Invalid request: solverTimeout must be 100..30000 ms",
      );
    if (wholeMs < perSolverMs || wholeMs > bounds.globalMax)
      throw new AggregatorError(
        400,
        "VALIDATION_ERROR",
        "Invalid request: timeout must be solverTimeout..60000 ms",
      );

    const selected = [...solvers.values()].filter(
      (s) =>
        (!options.includeSolvers || options.includeSolvers.includes(s.config.solverId)) &&
        !options.excludeSolvers?.includes(s.config.solverId),
    );
    if (selected.length === 0) throw new AggregatorError(400, "AGGREGATION_ERROR", "No solvers available");

    const forwarded: GetQuoteRequest = {
      user: request.user,
      intent: request.intent,
      supportedTypes: request.supportedTypes,
    };
    const whole = AbortSignal.timeout(wholeMs);
    let success = 0;
    let errors = 0;
    let timedOut = 0;
    const rounds = await Promise.all(
      selected.map(async (entry): Promise<QuoteResponse[]> => {
        // Held in this scope (read in the catch below): Node 20's AbortSignal.any holds its sources
        // weakly, and a timeout signal nothing else holds is collected at the next GC and never fires
        // (nodejs/node#57736; an inline AbortSignal.timeout here was lost in 20 of 20 tries with a GC
        // during the wait), so a slow solver was kept in the round past its per-solver timeout.
        const perSolver = AbortSignal.timeout(perSolverMs);
        const signal = AbortSignal.any([perSolver, whole]);
        try {
          const parsed = solverQuotesResponseSchema.safeParse(
            await entry.client.getQuotes(forwarded, signal),
          );
          if (!parsed.success) {
            errors += 1;
            return [];
          }
          success += 1;
          entry.lastSeen = iso();
          return parsed.data.quotes.map((quote) => {
            const unsigned = {
              quoteId: quote.quoteId ?? `oif-quote-${randomUUID()}`,
              solverId: entry.config.solverId,
              order: quote.order,
              ...(quote.validUntil !== undefined ? { validUntil: quote.validUntil } : {}),
              ...(quote.eta !== undefined ? { eta: quote.eta } : {}),
              ...(quote.provider !== undefined ? { provider: quote.provider } : {}),
              ...(quote.failureHandling !== undefined ? { failureHandling: quote.failureHandling } : {}),
              partialFill: quote.partialFill,
              preview: quote.preview,
            };
            return {
              ...unsigned,
              integrityChecksum: computeIntegrityChecksum(config.integritySecret, unsigned),
              ...(quote.metadata !== undefined ? { metadata: quote.metadata } : {}),
            };
          });
        } catch (error) {
          if (isAbort(error) || perSolver.aborted) timedOut += 1;
          else errors += 1;
          return [];
        }
      }),
    );
    const quotes = rounds.flat().sort((a, b) => (a.eta ?? Infinity) - (b.eta ?? Infinity));
    if (quotes.length === 0)
      throw new AggregatorError(400, "AGGREGATION_ERROR", "All solvers failed to provide quotes");
    return {
      quotes,
      totalQuotes: quotes.length,
      metadata: {
        totalDurationMs: clock.now() - started,
        solverTimeoutMs: perSolverMs,
        globalTimeoutMs: wholeMs,
        earlyTermination: false,
        totalSolversAvailable: solvers.size,
        solversQueried: selected.length,
        solversRespondedSuccess: success,
        solversRespondedError: errors,
        solversTimedOut: timedOut,
        minQuotesRequired: options.minQuotes ?? 30,
        solverSelectionMode: options.solverSelection ?? "all",
      },
    };
  }

  async function submitOrder(request: PostOrderRequest): Promise<OrderResponse> {
    const quote = request.quoteResponse;
    if (quote.integrityChecksum.length === 0)
      throw new AggregatorError(400, "VALIDATION_ERROR", "Invalid request: integrityChecksum is required");
    if (!verifyIntegrityChecksum(config.integritySecret, quote))
      throw new AggregatorError(500, "INTERNAL_ERROR", "quote integrity verification failed");
    if (quote.validUntil !== undefined && Math.floor(clock.now() / 1000) > quote.validUntil)
      throw new AggregatorError(
        400,
        "QUOTE_EXPIRED",
        `Quote ${quote.quoteId} expired at ${quote.validUntil}`,
      );
    const entry = solverOrThrow(quote.solverId);
    const signature = request.signature && request.signature !== "0x" ? request.signature : undefined;

    let answer: unknown;
    try {
      answer = await entry.client.submitOrder(
        {
          order: quote.order,
          ...(signature ? { signature } : {}),
          quoteId: quote.quoteId,
          ...(request.originSubmission ? { originSubmission: request.originSubmission } : {}),
          ...(request.metadata !== undefined ? { metadata: request.metadata } : {}),
        },
        AbortSignal.timeout(orderTimeoutMs),
      );
    } catch (error) {
      if (error instanceof SolverHttpError) {
        if (error.refusedOrder())
          throw new AggregatorError(
            422,
            "SOLVER_REJECTED",
            error.errorMessage() ?? "solver rejected the order",
          );
        if (error.statusCode === 429)
          throw new AggregatorError(
            429,
            "RATE_LIMITED",
            `solver ${quote.solverId} is rate limiting`,
            error.retryAfter ? { "retry-after": error.retryAfter } : {},
          );
        throw new AggregatorError(
          502,
          "SOLVER_ADAPTER_ERROR",
          `OIF order endpoint returned status ${error.statusCode} with body ${error.body}`,
        );
      }
      throw new AggregatorError(
        502,
        "SOLVER_ADAPTER_ERROR",
        `OIF order endpoint unreachable: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    const solverOrderId = (answer as { orderId?: unknown })?.orderId;
    if (typeof solverOrderId !== "string" || solverOrderId.length === 0)
      throw new AggregatorError(502, "SOLVER_ADAPTER_ERROR", "solver accepted the order without an orderId");
    const orderId = normaliseOrderId(solverOrderId);
    const existing = orders.get(orderId);
    if (existing) return existing.response;

    const now = iso();
    const amounts = (items: { asset: string; amount?: string }[]): AssetAmount[] =>
      items.map((i) => ({ asset: i.asset, ...(i.amount !== undefined ? { amount: i.amount } : {}) }));
    const response: OrderResponse = {
      orderId,
      status: "created",
      quoteId: quote.quoteId,
      createdAt: now,
      updatedAt: now,
      inputAmounts: amounts(quote.preview.inputs),
      outputAmounts: amounts(quote.preview.outputs),
      orderType: quote.order.type,
      settlement: { type: "escrow", data: {} },
      fillTransaction: null,
    };
    orders.set(orderId, { solverId: entry.config.solverId, response });
    return response;
  }

  async function getOrder(id: string): Promise<OrderResponse> {
    const stored = orders.get(normaliseOrderId(id));
    if (!stored) throw new AggregatorError(404, "ORDER_NOT_FOUND", `Order not found: ${id}`);
    if (isFinalStatus(stored.response.status)) return stored.response;
    const entry = solverOrThrow(stored.solverId);
    try {
      const fresh = (await entry.client.getOrder(
        stored.response.orderId,
        AbortSignal.timeout(refreshTimeoutMs),
      )) as Partial<SolverOrderResponse>;
      if (fresh && typeof fresh === "object" && "status" in fresh) {
        stored.response = {
          ...stored.response,
          status: fresh.status,
          inputAmounts: fresh.inputAmounts ?? stored.response.inputAmounts,
          outputAmounts: fresh.outputAmounts ?? stored.response.outputAmounts,
          settlement: fresh.settlement ?? stored.response.settlement,
          fillTransaction: fresh.fillTransaction ?? null,
          updatedAt: iso(),
        };
        entry.lastSeen = iso();
      }
    } catch {
      // The reference serves the last stored order when a refresh fails.
    }
    return stored.response;
  }

  return {
    getQuotes,
    submitOrder,
    getOrder,
    async listSolvers(page = 1, pageSize = 25) {
      const all = [...solvers.values()];
      const slice = all.slice((page - 1) * pageSize, page * pageSize);
      await Promise.all(slice.map(refreshAssets));
      return { solvers: slice.map(solverInfo), totalSolvers: all.length };
    },
    async getSolver(solverId) {
      const entry = solverOrThrow(solverId);
      await refreshAssets(entry);
      return solverInfo(entry);
    },
    async health() {
      const details: Record<string, boolean> = {};
      await Promise.all(
        [...solvers.values()].map(async (entry) => {
          details[entry.config.solverId] = await refreshAssets(entry);
        }),
      );
      const healthy = Object.values(details).filter(Boolean).length;
      return {
        status: healthy === solvers.size ? "healthy" : "degraded",
        version: "0.1.0",
        solvers: {
          total: solvers.size,
          active: solvers.size,
          inactive: 0,
          healthy,
          unhealthy: solvers.size - healthy,
          healthDetails: details,
        },
        storage: { healthy: true, backend: "memory" },
      };
    },
  };
}
