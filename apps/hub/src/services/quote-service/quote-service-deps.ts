import type { Clock } from "@hub/clock";
import type { Logger } from "pino";
import type { QuoteAdmission } from "../../limits/quote-admission.js";
import type { CandidateSource } from "../../quotes/quote-candidate.js";
import type { QuoteMetrics } from "../../quotes/quote-metrics.js";
import type { QuoteStore } from "../../store/quote-store.js";

export interface QuoteServiceDeps {
  admission: QuoteAdmission;
  /** Every provider kind (OIF, proxy lanes, external), in the order their refusals are weighed. */
  sources: readonly CandidateSource[];
  quoteStore: QuoteStore | undefined;
  metrics: QuoteMetrics;
  logger: Logger;
  clock: Clock;
  replicaId: string;
  quoteDeadlineMs: number;
  quoteLifetimeMs: number;
}
