import { readSolanaOrderFact, type SolanaOrderFact } from "./read-solana-order-fact.js";
import type { SolanaSignatureInfo } from "./solana-chain-reader.js";
import type { SolanaPass } from "./solana-index-context.js";

/** How far one address is read back: its pages, and (a recipient) no older than notBefore. */
interface CatchUpBound {
  maxPages: number;
  notBefore?: number;
}

/**
 * The address's signatures newer than `until`, newest first, or undefined when there are more than
 * the pages allowed (a run is listed whole before any of it is committed).
 */
async function listSignatures(
  { indexing }: SolanaPass,
  address: string,
  until: string | undefined,
  bound: CatchUpBound,
): Promise<SolanaSignatureInfo[] | undefined> {
  const { reader, limits } = indexing;
  const listed: SolanaSignatureInfo[] = [];
  let before: string | undefined;
  let complete = false;
  for (let page = 0; page < bound.maxPages && !complete; page += 1) {
    const list = await reader.signaturesForAddress(address, {
      limit: limits.pageSize,
      ...(before ? { before } : {}),
      ...(until !== undefined ? { until } : {}),
    });
    for (const entry of list) {
      if (bound.notBefore !== undefined && entry.blockTime !== null && entry.blockTime < bound.notBefore) {
        complete = true;
        break;
      }
      listed.push(entry);
    }
    if (list.length < limits.pageSize) complete = true;
    before = list.at(-1)?.signature;
  }
  return complete ? listed : undefined;
}

/** Fetches one batch's transactions and writes their facts, moving the address's watermark past them. */
async function commitBatch(
  pass: SolanaPass,
  address: string,
  expected: string | null,
  batch: readonly SolanaSignatureInfo[],
): Promise<void> {
  const { chain, reader } = pass.indexing;
  const { context, progress } = pass;
  const read = await Promise.all(
    batch.map((entry) => (entry.failed ? undefined : reader.transaction(entry.signature))),
  );
  const facts: SolanaOrderFact[] = [];
  for (const [index, tx] of read.entries()) {
    if (!tx && !batch[index]?.failed)
      throw new Error(`${chain.chainDomain} lost transaction ${batch[index]?.signature}`);
    const fact = tx && readSolanaOrderFact(tx, pass.escrow);
    if (fact) facts.push(fact);
  }
  const last = batch.at(-1) as SolanaSignatureInfo;
  const lastTime = read.at(-1)?.blockTime ?? last.blockTime ?? 0;
  const written = await context.store.writeSolanaBatch({
    chainDomain: chain.chainDomain,
    genesisHex: pass.genesisHex,
    address,
    expectedSignature: expected,
    last: { signature: last.signature, slot: last.slot, blockTime: lastTime },
    facts,
    observedAt: new Date(context.clock.now()),
    lease: context.lease,
  });
  pass.newestBlockTime = Math.max(pass.newestBlockTime, lastTime);
  progress.fromBlock ??= batch[0]?.slot;
  progress.toBlock = last.slot;
  progress.ranges += 1;
  progress.factsWritten += written;
}

/**
 * Reads one address's history from its watermark, the newest signature processed: listed whole, newest
 * first, then fetched and committed oldest first in batches. "listed-part": more history than
 * maxPages; "halted": stopping, or the lease was lost.
 */
export async function catchUpSolanaAddress(
  pass: SolanaPass,
  address: string,
  bound: CatchUpBound,
): Promise<"caught-up" | "listed-part" | "halted"> {
  const { chain, limits } = pass.indexing;
  const { context } = pass;
  const known = await context.store.getSolanaAddressWatermark(chain.chainDomain, address);
  const listed = await listSignatures(pass, address, known?.lastSignature, bound);
  if (!listed) return "listed-part";
  let expected = known?.lastSignature ?? null;
  const oldestFirst = listed.reverse();
  for (let start = 0; start < oldestFirst.length; start += limits.batchSize) {
    if (context.stopping() || !(await context.holdLease())) return "halted";
    const batch = oldestFirst.slice(start, start + limits.batchSize);
    await commitBatch(pass, address, expected, batch);
    expected = (batch.at(-1) as SolanaSignatureInfo).signature;
  }
  return "caught-up";
}
