import { randomBytes } from "node:crypto";
import type { Clock } from "@hub/clock";
import type { SqlClient } from "@hub/store";
import type { Logger } from "pino";
import { createChainFactsStore, WatermarkConflictError } from "../store/chain-facts-store.js";
import { createQuoteStore } from "../store/quote-store.js";
import type { ChainIndexState, ChainProgress } from "./chain-progress.js";
import type { ChainBlock, ChainReader } from "./chain-reader.js";
import { createEvmChainReader } from "./create-evm-chain-reader.js";
import { createSolanaChainReader } from "./create-solana-chain-reader.js";
import {
  defaultSolanaIndexLimits,
  indexSolanaChain,
  type SolanaIndexContext,
  type SolanaIndexLimits,
  type SolanaReconcilerChainConfig,
} from "./index-solana-chain.js";
import type { SolanaChainReader } from "./solana-chain-reader.js";

export type { ChainIndexState, ChainProgress } from "./chain-progress.js";

export interface ReconcilerChainConfig {
  /** CAIP-2, e.g. "eip155:31337"; the watermark's key. */
  chainDomain: string;
  chainId: number;
  rpcUrl: string;
  inputSettlers: readonly string[];
  outputSettler: string;
  /** Open-flow Bridge contracts: their Deposited and Released logs are indexed with the settlers' facts. */
  bridges?: readonly string[];
  /** First block indexed when the chain has no watermark yet (the deployment block). */
  startBlock: number;
}

export interface ReconcilerDeps {
  sql: SqlClient;
  chains: readonly ReconcilerChainConfig[];
  clock: Clock;
  logger: Pick<Logger, "debug" | "info" | "warn" | "error">;
  /** Blocks kept below the head before indexing; 0 on the devnet. */
  confirmations?: number;
  pollIntervalMs?: number;
  /** Most blocks one eth_getLogs covers. */
  maxBlockRange?: number;
  leaseTtlMs?: number;
  leaseName?: string;
  /** Names this instance in the lease; random when absent. */
  instanceId?: string;
  /** Defaults to EVM JSON-RPC over HTTP at the chain's rpcUrl. */
  createChainReader?: (chain: ReconcilerChainConfig) => ChainReader;
  /** Solana chains: the escrow's vaults and the token accounts of orders awaiting a Solana fill. */
  solanaChains?: readonly SolanaReconcilerChainConfig[];
  /** Defaults to Solana JSON-RPC over HTTP at the chain's rpcUrl. */
  createSolanaChainReader?: (chain: SolanaReconcilerChainConfig) => SolanaChainReader;
  solanaLimits?: Partial<SolanaIndexLimits>;
  /** The leader deletes quotes no order refers to once this long past registrable, one batch a tick; absent: none. */
  quotePruning?: { retentionMs: number; batchSize?: number };
}

export interface TickResult {
  leader: boolean;
  chains: ChainProgress[];
  /** Quotes past their retention deleted in this tick. */
  quotesPruned: number;
}

export interface Reconciler {
  readonly instanceId: string;
  /** Whether this instance held the lease at its last tick (only the leader indexes). */
  readonly leader: boolean;
  /** Each configured chain's last known indexing state. */
  chainStates(): ChainIndexState[];
  /** Starts the poll loop (a tick now, then one every pollIntervalMs after the previous ends). */
  start(): void;
  /** Ends the loop, waits for a running tick, and gives the lease up. */
  stop(): Promise<void>;
  /** One pass: take or renew the lease, then index every chain up to its safe head. */
  tick(): Promise<TickResult>;
}

export function createReconciler(deps: ReconcilerDeps): Reconciler {
  const store = createChainFactsStore(deps.sql);
  const quotes = createQuoteStore(deps.sql);
  const confirmations = deps.confirmations ?? 0;
  const pollIntervalMs = deps.pollIntervalMs ?? 1000;
  const maxBlockRange = deps.maxBlockRange ?? 2000;
  const leaseTtlMs = deps.leaseTtlMs ?? 15_000;
  const lease = {
    name: deps.leaseName ?? "reconciler",
    holder: deps.instanceId ?? `rec_${randomBytes(8).toString("hex")}`,
  };
  const makeReader = deps.createChainReader ?? ((chain) => createEvmChainReader({ rpcUrl: chain.rpcUrl }));
  const readers = new Map(deps.chains.map((chain) => [chain.chainDomain, makeReader(chain)]));
  const verifiedChainIds = new Set<string>();
  const solanaChains = deps.solanaChains ?? [];
  const allDomains = [...deps.chains, ...solanaChains].map((chain) => chain.chainDomain);
  const states = new Map<string, ChainIndexState>(
    allDomains.map((chainDomain) => [chainDomain, { chainDomain, errors: 0 }]),
  );
  const makeSolanaReader =
    deps.createSolanaChainReader ?? ((chain) => createSolanaChainReader({ rpcUrl: chain.rpcUrl }));
  const solanaContexts = new Map<string, SolanaIndexContext>(
    solanaChains.map((chain) => [
      chain.chainDomain,
      {
        chain,
        reader: makeSolanaReader(chain),
        store,
        clock: deps.clock,
        lease,
        limits: { ...defaultSolanaIndexLimits, ...deps.solanaLimits },
        holdLease: () => holdLease(false),
        stopping: () => stopping,
        state: states.get(chain.chainDomain),
        genesisChecked: false,
      },
    ]),
  );
  let leader = false;
  let leaseRenewedAt = 0;
  let running = false;
  let stopping = false;
  let timer: NodeJS.Timeout | undefined;
  let inFlight: Promise<TickResult> | undefined;

  async function holdLease(force: boolean): Promise<boolean> {
    const now = deps.clock.now();
    if (!force && now - leaseRenewedAt < leaseTtlMs / 3) return true;
    const held = await store.acquireReconcilerLease({ ...lease, ttlMs: leaseTtlMs });
    leaseRenewedAt = held ? now : 0;
    return held;
  }

  async function checkChainId(chain: ReconcilerChainConfig, reader: ChainReader): Promise<void> {
    if (verifiedChainIds.has(chain.chainDomain)) return;
    const actual = await reader.chainId();
    if (actual !== chain.chainId) {
      throw new Error(
        `${chain.rpcUrl} answers chain id ${actual}, configured ${chain.chainId} for ${chain.chainDomain}`,
      );
    }
    verifiedChainIds.add(chain.chainDomain);
  }

  async function indexChain(chain: ReconcilerChainConfig): Promise<ChainProgress> {
    const progress: ChainProgress = { chainDomain: chain.chainDomain, ranges: 0, factsWritten: 0 };
    const reader = readers.get(chain.chainDomain);
    if (!reader) throw new Error(`no reader for ${chain.chainDomain}`);
    await checkChainId(chain, reader);
    const watermark = await store.getWatermark(chain.chainDomain);
    if (watermark) {
      const stored = await reader.block(watermark.lastBlock);
      // Confirmations bound the reorgs we tolerate; below the watermark history must not change.
      if (stored.hash !== watermark.lastBlockHash) {
        throw new Error(
          `block ${watermark.lastBlock} of ${chain.chainDomain} is now ${stored.hash}, indexed as ${watermark.lastBlockHash}: history changed below the watermark`,
        );
      }
    }
    const safeHead = (await reader.headBlockNumber()) - confirmations;
    const state = states.get(chain.chainDomain);
    if (state) {
      state.safeHead = safeHead;
      if (watermark) state.indexedBlock = watermark.lastBlock;
    }
    let expected = watermark ? watermark.lastBlock : null;
    let from = watermark ? watermark.lastBlock + 1 : chain.startBlock;
    while (from <= safeHead && !stopping) {
      if (!(await holdLease(false))) break;
      const to = Math.min(from + maxBlockRange - 1, safeHead);
      const logs = await reader.orderLogs({
        fromBlock: from,
        toBlock: to,
        inputSettlers: chain.inputSettlers,
        outputSettler: chain.outputSettler,
        ...(chain.bridges?.length ? { bridges: chain.bridges } : {}),
      });
      const numbers = [...new Set([...logs.map((log) => log.blockNumber), to])];
      const blocks = new Map<number, ChainBlock>(
        (await Promise.all(numbers.map((n) => reader.block(n)))).map((block) => [block.number, block]),
      );
      for (const log of logs) {
        if (blocks.get(log.blockNumber)?.hash !== log.blockHash) {
          throw new Error(
            `block ${log.blockNumber} of ${chain.chainDomain} changed while its range was read`,
          );
        }
      }
      const toBlock = blocks.get(to);
      if (!toBlock) throw new Error(`block ${to} missing`);
      const written = await store.writeIndexedRange({
        chainDomain: chain.chainDomain,
        chainId: chain.chainId,
        expectedLastBlock: expected,
        toBlock,
        logs,
        blockTimestamps: new Map([...blocks.values()].map((block) => [block.number, block.timestamp])),
        observedAt: new Date(deps.clock.now()),
        lease,
      });
      progress.fromBlock ??= from;
      progress.toBlock = to;
      progress.ranges += 1;
      progress.factsWritten += written;
      expected = to;
      from = to + 1;
      if (state) state.indexedBlock = to;
    }
    if (state && from > safeHead) state.caughtUpAtMs = deps.clock.now();
    return progress;
  }

  async function runTick(): Promise<TickResult> {
    // A lease that cannot be read is not held: the lag gauges stop reporting this instance's view.
    leader = await holdLease(true).catch((error: unknown) => {
      leader = false;
      throw error;
    });
    if (!leader) return { leader: false, chains: [], quotesPruned: 0 };
    const results = await Promise.allSettled([
      ...deps.chains.map((chain) => indexChain(chain)),
      ...[...solanaContexts.values()].map((context) => indexSolanaChain(context)),
    ]);
    const chains = results.map((result, index): ChainProgress => {
      if (result.status === "fulfilled") return result.value;
      const chainDomain = allDomains[index] ?? "unknown";
      const error = result.reason instanceof Error ? result.reason.message : String(result.reason);
      const state = states.get(chainDomain);
      if (state) state.errors += 1;
      if (result.reason instanceof WatermarkConflictError)
        deps.logger.warn({ chainDomain, error }, "reconciler range not committed");
      else deps.logger.error({ chainDomain, error }, "reconciler could not index chain");
      return { chainDomain, ranges: 0, factsWritten: 0, error };
    });
    for (const progress of chains) {
      if (progress.ranges > 0) deps.logger.debug({ ...progress }, "reconciler indexed");
    }
    return { leader: true, chains, quotesPruned: await pruneQuotes() };
  }

  async function pruneQuotes(): Promise<number> {
    if (!deps.quotePruning || stopping) return 0;
    const { retentionMs, batchSize = 500 } = deps.quotePruning;
    try {
      const pruned = await quotes.deleteExpiredUnreferenced(
        new Date(deps.clock.now() - retentionMs),
        batchSize,
      );
      if (pruned > 0) deps.logger.debug({ pruned }, "reconciler pruned expired quotes");
      return pruned;
    } catch (error) {
      deps.logger.warn(
        { error: error instanceof Error ? error.message : String(error) },
        "reconciler could not prune expired quotes",
      );
      return 0;
    }
  }

  function tick(): Promise<TickResult> {
    const previous = inFlight ?? Promise.resolve(undefined);
    const next = previous.catch(() => undefined).then(runTick);
    inFlight = next;
    return next;
  }

  function schedule(): void {
    if (!running || stopping) return;
    timer = setTimeout(() => {
      tick()
        .catch((error: unknown) => {
          deps.logger.error(
            { error: error instanceof Error ? error.message : String(error) },
            "reconciler tick failed",
          );
        })
        .finally(schedule);
    }, pollIntervalMs);
  }

  return {
    instanceId: lease.holder,
    get leader() {
      return leader;
    },
    chainStates: () => [...states.values()].map((state) => ({ ...state })),
    start() {
      if (running) return;
      running = true;
      stopping = false;
      tick()
        .catch((error: unknown) => {
          deps.logger.error(
            { error: error instanceof Error ? error.message : String(error) },
            "reconciler tick failed",
          );
        })
        .finally(schedule);
    },
    async stop() {
      stopping = true;
      running = false;
      if (timer) clearTimeout(timer);
      await inFlight?.catch(() => undefined);
      await store.releaseReconcilerLease(lease);
      leaseRenewedAt = 0;
      leader = false;
      stopping = false;
    },
    tick,
  };
}
