import { bytes32ToSolanaKey, solanaKeyToBytes32, solanaOifChainId } from "@hub/chain";
import { redactUrl } from "@hub/http-client";
import type { ChainWatermark } from "../../store/chain-facts-store.js";
import type { ChainIndexContext } from "../chain-indexer.js";
import type { ChainProgress } from "../chain-progress.js";
import { catchUpSolanaAddress } from "./catch-up-solana-address.js";
import { solanaAssociatedTokenAccount } from "./solana-associated-token-account.js";
import type { SolanaIndexContext, SolanaPass } from "./solana-index-context.js";

async function checkGenesis(indexing: SolanaIndexContext): Promise<void> {
  if (indexing.genesisChecked) return;
  const { chain } = indexing;
  const actual = await indexing.reader.genesisHash();
  if (actual !== chain.genesisHash) {
    throw new Error(
      `${redactUrl(chain.rpcUrl)} answers genesis hash ${actual}, configured ${chain.genesisHash} for ${chain.chainDomain}`,
    );
  }
  indexing.genesisChecked = true;
}

/** Every vault caught up, or the pass halted (false); a vault with too long a backlog fails the pass. */
async function catchUpVaults(pass: SolanaPass): Promise<boolean> {
  const { chain, limits } = pass.indexing;
  for (const { vault } of chain.escrow.vaults) {
    const outcome = await catchUpSolanaAddress(pass, vault, { maxPages: limits.maxVaultPages });
    if (outcome === "halted") return false;
    if (outcome === "listed-part") {
      throw new Error(
        `${chain.chainDomain} vault ${vault} has more than ${limits.maxVaultPages} pages to read`,
      );
    }
  }
  return true;
}

/** The token accounts of EVM orders awaiting a Solana fill, each with the oldest time it is read back to. */
async function awaitedAccounts(pass: SolanaPass): Promise<Map<string, number>> {
  const { limits } = pass.indexing;
  const nowSeconds = Math.floor(pass.context.clock.now() / 1000);
  const awaiting = await pass.context.store.awaitingSolanaFills(
    pass.escrow.oifChainId,
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
  return accounts;
}

/** Every awaited recipient read, or the pass halted (false). */
async function catchUpRecipients(pass: SolanaPass): Promise<boolean> {
  const { maxRecipientPages } = pass.indexing.limits;
  for (const [account, notBefore] of await awaitedAccounts(pass)) {
    // A recipient with more recent history than the pages allowed is read again next tick.
    if ((await catchUpSolanaAddress(pass, account, { maxPages: maxRecipientPages, notBefore })) === "halted")
      return false;
  }
  return true;
}

/** The chain's own watermark moves once every vault is caught up: the slot read first, the newest block time seen. */
async function moveChainWatermark(
  pass: SolanaPass,
  watermark: ChainWatermark | undefined,
  head: number,
): Promise<void> {
  const { chain } = pass.indexing;
  const { context } = pass;
  const toSlot = Math.max(head, watermark?.lastBlock ?? 0);
  await context.store.writeIndexedRange({
    chainDomain: chain.chainDomain,
    chainId: 0,
    expectedLastBlock: watermark ? watermark.lastBlock : null,
    toBlock: { number: toSlot, hash: pass.genesisHex, timestamp: pass.newestBlockTime },
    logs: [],
    blockTimestamps: new Map(),
    observedAt: new Date(context.clock.now()),
    lease: context.lease,
  });
  if (context.state) {
    context.state.indexedBlock = toSlot;
    context.state.caughtUpAtMs = context.clock.now();
  }
}

/**
 * One tick on a Solana chain: each vault's history (then the token accounts of EVM orders awaiting a
 * Solana fill) read from its watermark, each batch moving the address's watermark in the transaction
 * that writes its facts. The chain's own watermark (genesis hash as block hash) moves once every vault
 * is caught up.
 */
export async function indexSolanaChain(
  indexing: SolanaIndexContext,
  context: ChainIndexContext,
): Promise<ChainProgress> {
  const { chain, reader } = indexing;
  const { store, state } = context;
  const progress: ChainProgress = { chainDomain: chain.chainDomain, ranges: 0, factsWritten: 0 };
  await checkGenesis(indexing);
  const genesisHex = solanaKeyToBytes32(chain.genesisHash);
  const escrow = {
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
    state.headBlock = head;
    state.headAtMs = context.clock.now();
    if (watermark) state.indexedBlock = watermark.lastBlock;
  }
  const newestBlockTime = watermark?.lastBlockTimestamp ?? 0;
  const pass: SolanaPass = { indexing, context, escrow, genesisHex, progress, newestBlockTime };
  if (!(await catchUpVaults(pass)) || !(await catchUpRecipients(pass))) return progress;
  if (context.stopping() || !(await context.holdLease())) return progress;
  await moveChainWatermark(pass, watermark, head);
  return progress;
}
