import type { z } from "zod";
import { externalAggregatorKind } from "./external-aggregator/external-aggregator-kind.js";
import { oifAggregatorKind } from "./oif-aggregator/oif-aggregator-kind.js";

/**
 * Every provider kind the hub speaks to, one line each; its `kind` names its folder under providers/.
 * The order is the order of clients, health checks and quote sources (refusals are weighed in it), and
 * the first kind is the one a configuration entry without `kind` takes.
 */
export const providerKinds = [oifAggregatorKind, externalAggregatorKind] as const;

type RegisteredKind = (typeof providerKinds)[number];

/** A provider with every default filled in, of any registered kind. */
export type ProviderConfig = z.output<RegisteredKind["configSchema"]>;

/** A provider as configured, defaults optional; the first kind's entries may leave out `kind`. */
export type ProviderConfigInput =
  | z.input<RegisteredKind["configSchema"]>
  | Omit<z.input<(typeof providerKinds)[0]["configSchema"]>, "kind">;

/** The registered kind of a parsed configuration entry. */
export function providerKindOf(config: ProviderConfig): RegisteredKind {
  const kind = providerKinds.find((registered) => registered.kind === config.kind);
  if (!kind) throw new Error(`provider ${config.id}: no registered kind ${JSON.stringify(config.kind)}`);
  return kind;
}
