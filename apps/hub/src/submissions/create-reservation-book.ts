import type { ReservationBook } from "@hub/admin";
import type { SqlClient } from "@hub/store";
import { getChainFacts } from "../onchain-views/get-chain-facts.js";
import { createSubmissionStore } from "../store/submission-store.js";
import { firstUpstreamView } from "./first-upstream-view.js";

/** The reservations the admin module reads and settles, on the submission store and the chain facts. */
export function createReservationBook(sql: SqlClient): ReservationBook {
  const store = createSubmissionStore(sql);
  return {
    list: (filter) => store.list(filter),
    find: (hubOrderId) => store.find(hubOrderId),
    recomputedOnchainOrderId: async (quoteId) => (await store.findQuote(quoteId))?.onchainOrderId,
    chainView: (onchainOrderId) => getChainFacts(sql, onchainOrderId),
    reconcile: ({ finding, ...input }) =>
      store.reconcile({
        ...input,
        finding: finding.opened ? { ...finding, view: firstUpstreamView(input.at) } : finding,
      }),
  };
}
