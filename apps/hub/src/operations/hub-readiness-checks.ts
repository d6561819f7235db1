import type { OperationsStore } from "../store/operations-store.js";
import type { ReadinessCheck } from "../metrics/readiness.js";

/** Anything the hub reads over HTTP whose answering it can check (an upstream client). */
export interface ProbedUpstream {
  readonly provider: { readonly id: string };
  /** Undefined when the upstream answers as it should; else why not. */
  ready(signal: AbortSignal): Promise<string | undefined>;
}

export function databaseCheck(store: OperationsStore): ReadinessCheck {
  return { name: "database", run: async () => void (await store.ping()) };
}

export function upstreamCheck(upstream: ProbedUpstream): ReadinessCheck {
  return {
    name: `upstream:${upstream.provider.id}`,
    group: "upstream",
    run: (signal) => upstream.ready(signal),
  };
}
