import { bytes32ToSolanaKey, solanaKeyToBytes32, solanaOifChainId } from "@hub/chain";
import type { Clock } from "@hub/clock";
import type { ChainFactsStore } from "../store/chain-facts-store.js";
import type { ChainIndexState, ChainProgress } from "./chain-progress.js";
import {
  readSolanaOrderFact,
  type SolanaEscrowAccounts,
  type SolanaOrderFact,
} from "./read-solana-order-fact.js";
import { solanaAssociatedTokenAccount } from "./solana-associated-token-account.js";
import type { SolanaChainReader, SolanaSignatureInfo } from "./solana-chain-reader.js";

export interface SolanaReconcilerChainConfig {
  /** CAIP-2, `solana:<first 32 characters of the genesis hash>`; the watermark's key. */
  chainDomain: string;
  /** base58 of the 32 genesis-hash bytes: checked against the node, and the chain's OIF chain id. */
  genesisHash: string;
  rpcUrl: string;
  /** The escrow's settler authority and its vault token account per mint. */
  escrow: { settler: string; vaults: readonly { mint: string; vault: string }[] };
  /** The account Solana outputs name as settler and oracle. */
  outputSettler: string;
}

export interface SolanaIndexLimits {
  /** Signatures per getSignaturesForAddress page (at most 1000). */
  pageSize: number;
  /** Pages one vault may list in one tick before the tick fails loudly (a backlog that large). */
  maxVaultPages: number;
  /** Transactions fetched and committed together. */
  batchSize: number;
  /** EVM orders awaiting a Solana fill whose recipients are read in one tick, newest first. */
  maxAwaitingOrders: number;
  /** Pages of one recipient's token account history read in one tick. */
  maxRecipientPages: number;
  /** A recipient's history is read back to this long before the order's Open (seconds). */
  recipientLookbackSeconds: number;
  /** Orders whose fillDeadline passed longer ago than this are no longer awaited (seconds). */
  awaitGraceSeconds: number;
}

export const defaultSolanaIndexLimits: SolanaIndexLimits = {
  pageSize: 1000,
  maxVaultPages: 100,
  batchSize: 100,
  maxAwaitingOrders: 50,
  maxRecipientPages: 2,
  recipientLookbackSeconds: 600,
  awaitGraceSeconds: 3600,
};

export interface SolanaIndexContext {
  chain: SolanaReconcilerChainConfig;
  reader: SolanaChainReader;
  store: ChainFactsStore;
  clock: Clock;
  lease: { name: string; holder: string };
  limits: SolanaIndexLimits;
  /** False once the lease is lost: nothing more is written this tick. */
  holdLease(): Promise<boolean>;
  stopping(): boolean;
  state: ChainIndexState | undefined;
  /** The node's genesis hash matched once: not asked again. */
  genesisChecked: boolean;
}

/**
 * One tick on a Solana chain: each vault's history (then the token accounts of EVM orders awaiting a
 * Solana fill) read from its watermark, the newest signature processed, to the newest signature. Pages
 * go newest first, so a run is listed whole, then fetched and committed oldest first in batches, each
 * batch moving the address's watermark in the transaction that writes its facts. The chain's own
 * watermark (slot read first, genesis hash as block hash, newest block time seen) moves once every vault
 * is caught up. Returns the tick's progress and whether the genesis check ran.
 */
export async function indexSolanaChain(context: SolanaIndexContext): Promise<ChainProgress> {
  const { chain, reader, store, limits, state } = context;
  const progress: ChainProgress = { chainDomain: chain.chainDomain, ranges: 0, factsWritten: 0 };
  if (!context.genesisChecked) {
    const actual = await reader.genesisHash();
    if (actual !== chain.genesisHash) {
      throw new Error(
        `${chain.rpcUrl} answers genesis hash ${actual}, configured ${chain.genesisHash} for ${chain.chainDomain}`,
      );
    }
    context.genesisChecked = true;
  }
  const genesisHex = solanaKeyToBytes32(chain.genesisHash);
  const escrow: SolanaEscrowAccounts = {
    settler: chain.escrow.settler,
    outputSettler: chain.outputSettler,
    oifChainId: solanaOifChainId(chain.genesisHash).toString(),
    vaults: new Map(chain.escrow.vaults.map(({ mint, vault }) => [vault, mint])),
  };
  const watermark = await store.getWatermark(chain.chainDomain);
  if (watermark && watermark.lastBlockHash !== genesisHex) {
    throw new Error(
      `${chain.chainDomain} was indexed under genesis ${watermark.lastBlockHash}, now ${genesisHex}`,
    );
  }
  const head = await reader.slot();
  if (state) {
    state.safeHead = head;
    if (watermark) state.indexedBlock = watermark.lastBlock;
  }
  let newestBlockTime = watermark?.lastBlockTimestamp ?? 0;

  /** "listed-part": more history than maxPages; "halted": stopping, or the lease was lost. */
  async function catchUp(
    address: string,
    options: { maxPages: number; notBefore?: number },
  ): Promise<"caught-up" | "listed-part" | "halted"> {
    const known = await store.getSolanaAddressWatermark(chain.chainDomain, address);
    const listed: SolanaSignatureInfo[] = [];
    let before: string | undefined;
    let complete = false;
    for (let page = 0; page < options.maxPages && !complete; page += 1) {
      const list = await reader.signaturesForAddress(address, {
        limit: limits.pageSize,
        ...(before ? { before } : {}),
        ...(known ? { until: known.lastSignature } : {}),
      });
      for (const entry of list) {
        if (
          options.notBefore !== undefined &&
          entry.blockTime !== null &&
          entry.blockTime < options.notBefore
        ) {
          complete = true;
          break;
        }
        listed.push(entry);
      }
      if (list.length < limits.pageSize) complete = true;
      before = list.at(-1)?.signature;
    }
    if (!complete) return "listed-part";
    let expected = known?.lastSignature ?? null;
    const oldestFirst = listed.reverse();
    for (let start = 0; start < oldestFirst.length; start += limits.batchSize) {
      if (context.stopping() || !(await context.holdLease())) return "halted";
      const batch = oldestFirst.slice(start, start + limits.batchSize);
      const read = await Promise.all(
        batch.map((entry) => (entry.failed ? undefined : reader.transaction(entry.signature))),
      );
      const facts: SolanaOrderFact[] = [];
      for (const [index, tx] of read.entries()) {
        if (!tx && !batch[index]?.failed)
          throw new Error(`${chain.chainDomain} lost transaction ${batch[index]?.signature}`);
        const fact = tx && readSolanaOrderFact(tx, escrow);
        if (fact) facts.push(fact);
      }
      const last = batch.at(-1) as SolanaSignatureInfo;
      const lastTime = read.at(-1)?.blockTime ?? last.blockTime ?? 0;
      const written = await store.writeSolanaBatch({
        chainDomain: chain.chainDomain,
        genesisHex,
        address,
        expectedSignature: expected,
        last: { signature: last.signature, slot: last.slot, blockTime: lastTime },
        facts,
        observedAt: new Date(context.clock.now()),
        lease: context.lease,
      });
      expected = last.signature;
      newestBlockTime = Math.max(newestBlockTime, lastTime);
      progress.fromBlock ??= batch[0]?.slot;
      progress.toBlock = last.slot;
      progress.ranges += 1;
      progress.factsWritten += written;
    }
    return "caught-up";
  }

  for (const { vault } of chain.escrow.vaults) {
    const outcome = await catchUp(vault, { maxPages: limits.maxVaultPages });
    if (outcome === "halted") return progress;
    if (outcome === "listed-part") {
      throw new Error(
        `${chain.chainDomain} vault ${vault} has more than ${limits.maxVaultPages} pages to read`,
      );
    }
  }

  const nowSeconds = Math.floor(context.clock.now() / 1000);
  const awaiting = await store.awaitingSolanaFills(
    escrow.oifChainId,
    nowSeconds - limits.awaitGraceSeconds,
    limits.maxAwaitingOrders,
  );
  const accounts = new Map<string, number>();
  for (const order of awaiting) {
    const account = solanaAssociatedTokenAccount(
      bytes32ToSolanaKey(order.recipient as `0x${string}`),
      bytes32ToSolanaKey(order.token as `0x${string}`),
    );
    const notBefore = order.openedAt - limits.recipientLookbackSeconds;
    accounts.set(account, Math.min(accounts.get(account) ?? notBefore, notBefore));
  }
  for (const [account, notBefore] of accounts) {
    // A recipient with more recent history than the pages allowed is read again next tick.
    if ((await catchUp(account, { maxPages: limits.maxRecipientPages, notBefore })) === "halted")
      return progress;
  }

  if (context.stopping() || !(await context.holdLease())) return progress;
  const toSlot = Math.max(head, watermark?.lastBlock ?? 0);
  await store.writeIndexedRange({
    chainDomain: chain.chainDomain,
    chainId: 0,
    expectedLastBlock: watermark ? watermark.lastBlock : null,
    toBlock: { number: toSlot, hash: genesisHex, timestamp: newestBlockTime },
    logs: [],
    blockTimestamps: new Map(),
    observedAt: new Date(context.clock.now()),
    lease: context.lease,
  });
  if (state) {
    state.indexedBlock = toSlot;
    state.caughtUpAtMs = context.clock.now();
  }
  return progress;
}
