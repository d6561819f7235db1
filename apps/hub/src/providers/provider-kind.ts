import type { Clock } from "@hub/clock";
import type { Logger } from "pino";
import type { z } from "zod";
import type { ChainFamilyName } from "../chains/chain-family.js";
import type { OutboundLimiter } from "../limits/outbound-limiter.js";
import type { CandidateSource } from "../quotes/quote-candidate.js";
import type { QuoteMetrics } from "../quotes/quote-metrics.js";
import type { UnavailableReason, UpstreamCallObserver } from "../upstream/upstream-http.js";

/** What every configured provider carries, whatever its kind. */
export interface ProviderConfigBase {
  readonly id: string;
  readonly kind: string;
  readonly enabled: boolean;
}

/**
 * What one order submission came to. Only `not-sent` proves nothing reached the upstream; `unknown`
 * means it may have (timeout or reset after sending, a 5xx, an answer that does not parse).
 */
export type SubmitOrderOutcome =
  | { kind: "accepted"; orderId: string }
  | { kind: "solver-rejected"; message: string }
  | { kind: "rate-limited"; retryAfterSeconds: number | undefined }
  | { kind: "refused"; httpStatus: number; error: string | undefined; message: string }
  | { kind: "auth-refused"; httpStatus: number }
  | { kind: "not-sent"; cause: string }
  | { kind: "unknown"; cause: string };

/** An order as a provider reports it: its status in the hub's report form and its unverified fill reference. */
export interface ProviderOrderReport {
  readonly status: unknown;
  readonly fillTransaction?: unknown;
}

/** What one order read came to. */
export type GetOrderOutcome =
  | { kind: "found"; order: ProviderOrderReport }
  | { kind: "not-found" }
  | { kind: "rate-limited"; retryAfterSeconds: number | undefined }
  | { kind: "refused"; httpStatus: number; error: string | undefined; message: string }
  | { kind: "auth-refused"; httpStatus: number }
  | { kind: "unavailable"; reason: UnavailableReason; cause: string };

/** Forwards a signed order of one of the provider's quotes (POST /order/openfor). */
export interface OrderSubmitter {
  submitOrder(
    input: { quoteResponse: unknown; signature?: string },
    signal?: AbortSignal,
  ): Promise<SubmitOrderOutcome>;
}

/** Reads an order the provider accepted (GET /order/{id}/status). */
export interface OrderReader {
  getOrder(upstreamOrderId: string, signal?: AbortSignal): Promise<GetOrderOutcome>;
}

/**
 * One configured provider as the hub holds it: its config, its health and the calls of its life. A
 * kind whose winners complete elsewhere (POST /order) leaves out submitOrder and getOrder.
 */
export interface ProviderClient<Config extends ProviderConfigBase = ProviderConfigBase>
  extends Partial<OrderSubmitter>,
    Partial<OrderReader> {
  readonly provider: Config;
  /** Readiness: undefined when the provider answers its probe as it should; else why not. */
  ready(signal: AbortSignal): Promise<string | undefined>;
  close(): Promise<void>;
}

/** What a kind's client is built with. */
export interface ProviderClientDeps {
  /** Told of every call's end (the operations metrics). */
  observe: UpstreamCallObserver | undefined;
  /** The per-provider cap of calls in flight; a quote call past it is not sent. */
  outbound: OutboundLimiter | undefined;
}

/** What the hub gives a kind's quote sources: the round's metrics and the chains it may read at quote time. */
export interface QuoteSourceContext {
  metrics: QuoteMetrics;
  logger: Logger;
  clock: Clock;
  /** EVM chains, by chain id (the swap router on the proxy lanes). */
  chains: readonly { chainId: number; rpcUrl: string }[];
  /** The other families' chains, by family and chain domain (a kind may read them to vet an answer). */
  familyChains: Partial<Record<ChainFamilyName, readonly { chainDomain: string; rpcUrl: string }[]>>;
  /** How long a proxy-lane winner stays registrable after issue. */
  proxyTemplateHoldMs: number;
  /** The least validity an open-flow answer must have left when vetted. */
  openFlowMinValidityMs: number;
  /** The furthest fill deadline or expiry an answer may carry, from now (HUB_QUOTE_MAX_DEADLINE_SECONDS). */
  maxDeadlineMs: number;
}

/**
 * One provider kind's whole life, as the registry (provider-registry.ts) holds it: its configuration
 * entry, its client (quote, submit, status, health, in its own dialects), and the quote-round sources
 * it serves. Code above the registry sees only this interface, never a kind's name.
 */
export interface ProviderKind<
  Config extends ProviderConfigBase = ProviderConfigBase,
  Client extends ProviderClient<Config> = ProviderClient<Config>,
> {
  /** The configuration's `kind` and the name of the kind's folder under providers/. */
  readonly kind: Config["kind"];
  /** One configured provider of this kind; its `kind` is the literal above. */
  readonly configSchema: z.ZodType<Config> & z.core.$ZodTypeDiscriminable;
  /** The client of one configured provider, over its own keep-alive pool. */
  createClient(config: Config, deps: ProviderClientDeps): Client;
  /** The quote-round sources over the kind's enabled clients, in the order their refusals are weighed. */
  quoteSources(clients: readonly Client[], context: QuoteSourceContext): CandidateSource[];
}
