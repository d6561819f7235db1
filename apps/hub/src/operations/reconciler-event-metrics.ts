import { Counter, Gauge, type Registry } from "prom-client";
import type { ReconcilerView } from "./reconciler-view.js";

/** The reconciler's lease, its failed ticks, the reorganisations it rolled back and the final blocks it read. */
export function registerReconcilerEventMetrics(registry: Registry, reconciler: ReconcilerView): void {
  new Gauge({
    name: "hub_reconciler_leader",
    help: "1 when this process holds the reconciler lease (indexes the chains), else 0.",
    registers: [registry],
    collect() {
      this.set(reconciler.leader ? 1 : 0);
    },
  });
  new Counter({
    name: "hub_reconciler_errors_total",
    help: "Reconciler ticks in which a chain could not be indexed, per chain.",
    labelNames: ["chain"] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const state of reconciler.chainStates()) this.labels(state.chainDomain).inc(state.errors);
    },
  });
  new Counter({
    name: "hub_chain_reorgs_total",
    help: "Reorganisations the reconciler rolled back, per chain and depth (blocks replaced above the fork point).",
    labelNames: ["chain", "depth"] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const state of reconciler.chainStates()) {
        for (const [depth, count] of Object.entries(state.reorgsByDepth))
          this.labels(state.chainDomain, depth).inc(count);
      }
    },
  });
  new Counter({
    name: "hub_chain_finality_violations_total",
    help: "Reorganisations that replaced a block already final by the chain's finality rule, per chain.",
    labelNames: ["chain"] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const state of reconciler.chainStates())
        this.labels(state.chainDomain).inc(state.finalityViolations);
    },
  });
  new Gauge({
    name: "hub_chain_reorg_beyond_kept_blocks",
    help: "1 while a chain reorganised below every kept block: not indexed until `hub admin reindex`.",
    labelNames: ["chain"] as const,
    registers: [registry],
    collect() {
      for (const state of reconciler.chainStates())
        this.labels(state.chainDomain).set(state.reorgBeyondKeptBlocks ? 1 : 0);
    },
  });
  new Gauge({
    name: "hub_reconciler_final_block",
    help: "The newest block final by the chain's finality rule, as the lease holder last read it.",
    labelNames: ["chain"] as const,
    registers: [registry],
    collect() {
      for (const state of reconciler.chainStates())
        if (state.finalBlock !== undefined) this.labels(state.chainDomain).set(state.finalBlock);
    },
  });
}
