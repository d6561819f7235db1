import type { Clock } from "@hub/clock";
import type { Logger } from "pino";
import type { OutboundLimiter } from "../../limits/outbound-limiter.js";
import type { ProviderState } from "../../open-flow/reapprove-open-flow-quote.js";
import type { OrderSubmitter } from "../../providers/provider-kind.js";
import type { OpenFlowStore } from "../../store/open-flow-store.js";
import type { SubmissionStore } from "../../store/submission-store.js";

/** The one call of the upstream a submission makes (its provider's client). */
export type OrderUpstream = OrderSubmitter;

export interface OrderServiceDeps {
  /** Absent: the hub has no database, so it holds no quote and every quote reference is unknown. */
  store: SubmissionStore | undefined;
  /** The client of a configured provider by id. */
  upstreamOf(providerId: string): OrderUpstream | undefined;
  /** The per-provider outbound cap; a submission past it is refused before anything is reserved. */
  outbound?: OutboundLimiter;
  clock: Clock;
  logger: Pick<Logger, "info" | "warn" | "error">;
  /** POST /order's registrations (absent without a database, like store). */
  registrations?: OpenFlowStore | undefined;
  /** Whether a provider is still configured in this deployment, and enabled. */
  providerState?: (providerId: string) => ProviderState;
  /** Config unsignedOpenFlowRegistration: POST /order admits none of signature, signer and scheme. */
  unsignedOpenFlowRegistration?: boolean;
}
