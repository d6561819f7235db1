import { request } from "undici";
import type { SolverPostOrderRequest } from "./oif-order.js";
import type { GetQuoteRequest } from "./oif-quote-request.js";

/** A non-2xx answer from a solver, kept whole so the aggregator can pass refusals through. */
export class SolverHttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly body: string,
    readonly retryAfter: string | undefined,
  ) {
    super(`solver answered HTTP ${statusCode}`);
    this.name = "SolverHttpError";
  }

  /** The `error` field of a JSON error body, when there is one. */
  errorCode(): string | undefined {
    try {
      const parsed = JSON.parse(this.body) as { error?: unknown };
      return typeof parsed.error === "string" ? parsed.error : undefined;
    } catch {
      return undefined;
    }
  }

  errorMessage(): string | undefined {
    try {
      const parsed = JSON.parse(this.body) as { message?: unknown };
      return typeof parsed.message === "string" ? parsed.message : undefined;
    } catch {
      return undefined;
    }
  }

  /** The solver refused the order itself: 422 with `SOLVER_REJECTED` (reference) or status `rejected` (specification). */
  refusedOrder(): boolean {
    if (this.statusCode !== 422) return false;
    if (this.errorCode() === "SOLVER_REJECTED") return true;
    try {
      return (JSON.parse(this.body) as { status?: unknown }).status === "rejected";
    } catch {
      return false;
    }
  }
}

/** The aggregator's way to one solver: the OIF solver HTTP API. */
export interface SolverClient {
  readonly endpoint: () => string;
  getQuotes(body: GetQuoteRequest, signal: AbortSignal): Promise<unknown>;
  submitOrder(body: SolverPostOrderRequest, signal: AbortSignal): Promise<unknown>;
  getOrder(orderId: string, signal: AbortSignal): Promise<unknown>;
  getAssets(signal: AbortSignal): Promise<unknown>;
}

const headers = {
  "content-type": "application/json",
  "user-agent": "OIF-Aggregator/1.0",
  "x-adapter-type": "OIF-v1",
};

/** `baseUrl` is the solver's API root (ending in /api/v1); a function when it is only known after listen. */
export function createHttpSolverClient(config: { baseUrl: string | (() => string) }): SolverClient {
  const endpoint = typeof config.baseUrl === "string" ? () => config.baseUrl as string : config.baseUrl;

  async function call(method: "GET" | "POST", path: string, signal: AbortSignal, body?: unknown) {
    const response = await request(`${endpoint()}${path}`, {
      method,
      headers: body === undefined ? { "user-agent": headers["user-agent"] } : headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal,
    });
    const text = await response.body.text();
    if (response.statusCode < 200 || response.statusCode >= 300) {
      const retryAfter = response.headers["retry-after"];
      throw new SolverHttpError(
        response.statusCode,
        text,
        typeof retryAfter === "string" ? retryAfter : undefined,
      );
    }
    return text.length === 0 ? undefined : (JSON.parse(text) as unknown);
  }

  return {
    endpoint,
    getQuotes: (body, signal) => call("POST", "/quotes", signal, body),
    submitOrder: (body, signal) => call("POST", "/orders", signal, body),
    getOrder: (orderId, signal) => call("GET", `/orders/${encodeURIComponent(orderId)}`, signal),
    getAssets: (signal) => call("GET", "/assets", signal),
  };
}
