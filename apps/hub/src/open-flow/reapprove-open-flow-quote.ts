import { HubError } from "@hub/contract";
import {
  completesOnOpenFor,
  isProxyLane,
  type LaneFacts,
  laneTable,
  type RegistrableLane,
} from "../lanes/lane-table.js";
import {
  isOpenFlowTemplate,
  type OpenFlowTemplate,
  openFlowTemplateFingerprint,
} from "../providers/external-aggregator/open-flow-template.js";
import type { QuoteForSubmission } from "../store/submission-store.js";

/** Whether a provider is in this deployment's configuration, and enabled. */
export type ProviderState = "enabled" | "disabled" | "unconfigured";

const refused = (message: string) => new HubError("EIN0007", { reference: "quoteId", message });

/**
 * Re-approval on POST /order (spec rule 3 and 4): the quote must still be an open-flow or solver-swap
 * winner of an enabled provider, its stored template unchanged since it was quoted (fingerprint).
 * Every OIF-lane and proxy-lane quote and every transfer winner is refused here, before any signature check.
 */
export function reapproveOpenFlowQuote(
  quote: QuoteForSubmission,
  providerState: ProviderState,
): OpenFlowTemplate & { lane: RegistrableLane } {
  const { template } = quote;
  if (completesOnOpenFor(quote.lane) || !isOpenFlowTemplate(template)) {
    throw refused(
      isProxyLane(quote.lane)
        ? "A proxy-lane executionTx is registered with POST /order/openfor (without signature), not here."
        : "An OIF-lane quote completes through POST /order/openfor, not here.",
    );
  }
  // A stored template's lane is checked, not trusted.
  const facts = laneTable[template.lane] as LaneFacts | undefined;
  if (facts?.submission === "none") {
    throw refused("A transfer winner is not completable: there is nothing to register.");
  }
  if (facts?.submission !== "order") {
    throw refused(`Lane ${String(template.lane)} is not registered here.`);
  }
  if (providerState !== "enabled") {
    throw refused("The provider of this quote is no longer enabled: the registration is not re-approved.");
  }
  if (openFlowTemplateFingerprint(template) !== template.fingerprint) {
    throw refused("The stored quote no longer matches its fingerprint: the registration is not re-approved.");
  }
  return template as OpenFlowTemplate & { lane: RegistrableLane };
}
