import type { OifDialect } from "./oif-dialect.js";

/**
 * Where the OIF services of each dialect are mounted: the reference aggregator's at `/aggregator` and
 * `/solvers/<id>` (as before dialects), the specification's at `/spec/aggregator` and `/spec/solvers/<id>`.
 * Both run on every devnet, in front of the same solvers.
 */
export const devnetOifMounts: Readonly<Record<OifDialect, { aggregator: string; solvers: string }>> = {
  "oif-aggregator": { aggregator: "/aggregator", solvers: "/solvers" },
  "oif-spec-1": { aggregator: "/spec/aggregator", solvers: "/spec/solvers" },
};
