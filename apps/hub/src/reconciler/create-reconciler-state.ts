import { randomBytes } from "node:crypto";
import type { ChainIndexer } from "../chains/chain-indexer.js";
import { chainFamilies } from "../chains/chain-families.js";
import { createEvmChainReader } from "../chains/evm/create-evm-chain-reader.js";
import { createChainFactsStore } from "../store/chain-facts-store.js";
import { createQuoteStore } from "../store/quote-store.js";
import { holdLease } from "./hold-lease.js";
import type { ReconcilerDeps } from "./reconciler-deps.js";
import type { ReconcilerState } from "./reconciler-state.js";

/** The EVM chains of deps.chains, each with the EVM family's indexer over its reader. */
function evmIndexers(deps: ReconcilerDeps): ChainIndexer[] {
  const makeReader =
    deps.createChainReader ?? ((chain) => createEvmChainReader({ rpcUrls: chain.rpcUrls ?? [chain.rpcUrl] }));
  const options = {
    confirmations: deps.confirmations ?? 0,
    maxBlockRange: deps.maxBlockRange ?? 2000,
    keepBlocks: deps.keepBlocks ?? 1024,
    rangesInFlight: Math.max(1, deps.rangesInFlight ?? 4),
    ...(deps.beforeRollbackCommit ? { beforeRollbackCommit: deps.beforeRollbackCommit } : {}),
  };
  return deps.chains.map((chain) =>
    chainFamilies.evm.indexer(chain, { ...options, reader: makeReader(chain) }),
  );
}

/** A new instance's state: no lease yet, every chain's state from now, the loops stopped. */
export function createReconcilerState(deps: ReconcilerDeps): ReconcilerState {
  const indexers = [...evmIndexers(deps), ...(deps.indexers ?? [])];
  const chainDomains = indexers.map((indexer) => indexer.chainDomain);
  const state: ReconcilerState = {
    deps,
    store: createChainFactsStore(deps.sql),
    quotes: createQuoteStore(deps.sql),
    pollIntervalMs: deps.pollIntervalMs ?? 1000,
    leaseTtlMs: deps.leaseTtlMs ?? 15_000,
    lease: {
      name: deps.leaseName ?? "reconciler",
      holder: deps.instanceId ?? `rec_${randomBytes(8).toString("hex")}`,
    },
    chainDomains,
    indexers: new Map(indexers.map((indexer) => [indexer.chainDomain, indexer])),
    states: new Map(
      chainDomains.map((chainDomain) => [
        chainDomain,
        { chainDomain, errors: 0, reorgsByDepth: {}, finalityViolations: 0, sinceMs: deps.clock.now() },
      ]),
    ),
    contexts: new Map(),
    leader: false,
    leaseRenewedAt: 0,
    running: false,
    stopping: false,
    timers: new Map(),
    inFlight: undefined,
    chainInFlight: new Map(),
  };
  for (const chainDomain of chainDomains) {
    state.contexts.set(chainDomain, {
      store: state.store,
      clock: deps.clock,
      logger: deps.logger,
      lease: state.lease,
      holdLease: () => holdLease(state, false),
      stopping: () => state.stopping,
      state: state.states.get(chainDomain),
    });
  }
  return state;
}
