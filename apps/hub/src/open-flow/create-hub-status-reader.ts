import type { Clock } from "@hub/clock";
import { HubError, type HubOrderStatus } from "@hub/contract";
import type { SqlClient } from "@hub/store";
import { createChainFactsStore } from "../store/chain-facts-store.js";
import { createOpenFlowStore } from "../store/open-flow-store.js";
import { claimAndReadOpenFlowStatus, type OpenFlowStatus } from "./claim-and-read-open-flow-status.js";

export interface HubStatusReaderDeps {
  sql: SqlClient;
  clock: Clock;
  /** How long a view is served without reading the database again (the spec's 2 s). */
  cacheMs: number;
  /** Views held in memory; past it the least recently refreshed one leaves. */
  capacity: number;
}

export interface HubStatusReader {
  read(orderId: string, organization: string): Promise<HubOrderStatus>;
  /** Database reads started so far (tests count them). */
  readonly databaseReads: number;
}

interface Cached extends OpenFlowStatus {
  refreshedAtMs: number;
}

const notFound = () => new HubError("EIN0009", { message: "Order not found." });

/**
 * GET /status/{orderId}: a 2 s cache per order id with one database read in flight per id, so any
 * number of pollers of one order cost one read per 2 s. Scoped by organization only (spec): another
 * organization's order reads as unknown. Unknown ids are not cached.
 */
export function createHubStatusReader(deps: HubStatusReaderDeps): HubStatusReader {
  const store = createOpenFlowStore(deps.sql);
  const chainFacts = createChainFactsStore(deps.sql);
  const finalBlockOf = async (chainDomain: string) =>
    (await chainFacts.getWatermark(chainDomain))?.finalBlock;
  const cache = new Map<string, Cached>();
  const inFlight = new Map<string, Promise<OpenFlowStatus | undefined>>();
  let databaseReads = 0;

  function remember(orderId: string, entry: Cached): void {
    cache.delete(orderId);
    cache.set(orderId, entry);
    if (cache.size > deps.capacity) {
      const oldest = cache.keys().next().value;
      if (oldest !== undefined) cache.delete(oldest);
    }
  }

  return {
    async read(orderId, organization) {
      const cached = cache.get(orderId);
      if (cached && deps.clock.now() - cached.refreshedAtMs < deps.cacheMs) {
        if (cached.organization !== organization) throw notFound();
        return cached.status;
      }
      let flight = inFlight.get(orderId);
      if (!flight) {
        const startedAtMs = deps.clock.now();
        databaseReads += 1;
        flight = claimAndReadOpenFlowStatus(store, orderId, new Date(startedAtMs), finalBlockOf)
          .then((found) => {
            if (found) remember(orderId, { ...found, refreshedAtMs: startedAtMs });
            return found;
          })
          .finally(() => inFlight.delete(orderId));
        inFlight.set(orderId, flight);
      }
      const found = await flight;
      if (!found || found.organization !== organization) throw notFound();
      return found.status;
    },
    get databaseReads() {
      return databaseReads;
    },
  };
}
