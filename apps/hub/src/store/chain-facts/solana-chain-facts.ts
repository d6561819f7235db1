import type { SqlClient, SqlExecutor } from "@hub/store";
import type { SolanaOrderFact } from "../solana-order-fact.js";
import { WatermarkConflictError } from "./chain-watermark.js";
import { markObservation } from "./indexed-range.js";

export interface SolanaAddressWatermark {
  lastSignature: string;
  lastSlot: number;
}

export interface SolanaBatch {
  chainDomain: string;
  /** The chain's genesis hash as 0x hex (what its observation mark carries as block hash). */
  genesisHex: string;
  address: string;
  /** The address's watermark the run was read from; null when it was never read. */
  expectedSignature: string | null;
  last: { signature: string; slot: number; blockTime: number };
  facts: readonly SolanaOrderFact[];
  observedAt: Date;
  lease: { name: string; holder: string };
}

/** What the Solana indexer writes and reads of its own: the watched addresses' histories and the fills it awaits. */
export interface SolanaChainFactsStore {
  /** The newest signature processed of one watched Solana address, or undefined when never read. */
  getSolanaAddressWatermark(
    chainDomain: string,
    address: string,
  ): Promise<SolanaAddressWatermark | undefined>;
  /**
   * Writes the facts of a run of an address's history (processed oldest first) and moves that address's
   * watermark to the run's newest signature, in one transaction: only from the value the run was read
   * from and while this holder has the lease, otherwise WatermarkConflictError and nothing written.
   */
  writeSolanaBatch(batch: SolanaBatch): Promise<number>;
  /**
   * EVM orders opened with an output on this Solana chain (by its OIF chain id) that have no indexed
   * Solana fill, are neither settled nor refunded, and whose fillDeadline is at or after `since`
   * (unix seconds): the newest `limit` of them, each with its output's recipient and token.
   */
  awaitingSolanaFills(
    oifChainId: string,
    since: number,
    limit: number,
  ): Promise<Array<{ onchainOrderId: string; recipient: string; token: string; openedAt: number }>>;
}

const solanaLeaseHeld = `EXISTS (SELECT 1 FROM reconciler_leases
  WHERE name = $5 AND holder = $6 AND expires_at > now())`;

async function moveSolanaAddressWatermark(tx: SqlExecutor, batch: SolanaBatch): Promise<boolean> {
  const params = [
    batch.chainDomain,
    batch.address,
    batch.last.signature,
    batch.last.slot,
    batch.lease.name,
    batch.lease.holder,
    batch.observedAt.toISOString(),
  ];
  const rows =
    batch.expectedSignature === null
      ? await tx.query(
          `INSERT INTO solana_address_watermarks (chain_domain, address, last_signature, last_slot, updated_at)
           SELECT $1::text, $2::text, $3::text, $4::bigint, $7::timestamptz WHERE ${solanaLeaseHeld}
           ON CONFLICT (chain_domain, address) DO NOTHING RETURNING address`,
          params,
        )
      : await tx.query(
          `UPDATE solana_address_watermarks SET last_signature = $3, last_slot = $4, updated_at = $7
           WHERE chain_domain = $1 AND address = $2 AND last_signature = $8 AND ${solanaLeaseHeld}
           RETURNING address`,
          [...params, batch.expectedSignature],
        );
  return rows.length === 1;
}

async function insertSolanaFact(tx: SqlExecutor, batch: SolanaBatch, fact: SolanaOrderFact): Promise<number> {
  const rows = await tx.query(
    `INSERT INTO solana_order_facts (chain_domain, signature, kind, onchain_order_id, slot, block_time,
       instruction_index, mint, amount, authority, destination, destination_owner, evm_solver, output, observed_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::numeric, $10, $11, $12, $13, $14::jsonb, $15)
     ON CONFLICT (chain_domain, signature) DO NOTHING RETURNING 1 AS written`,
    [
      batch.chainDomain,
      fact.signature,
      fact.kind,
      fact.onchainOrderId,
      fact.slot,
      fact.blockTime,
      fact.instructionIndex,
      fact.mint,
      fact.amount,
      fact.authority,
      fact.destination,
      fact.destinationOwner,
      fact.evmSolver ?? null,
      fact.output ? JSON.stringify(fact.output) : null,
      batch.observedAt.toISOString(),
    ],
  );
  return rows.length;
}

function writeSolanaBatch(sql: SqlClient, batch: SolanaBatch): Promise<number> {
  return sql.transaction(async (tx) => {
    if (!(await moveSolanaAddressWatermark(tx, batch)))
      throw new WatermarkConflictError(`${batch.chainDomain} ${batch.address}`, null);
    let written = 0;
    for (const fact of batch.facts) written += await insertSolanaFact(tx, batch, fact);
    if (written > 0) {
      await markObservation(tx, {
        chainDomain: batch.chainDomain,
        toBlock: { number: batch.last.slot, hash: batch.genesisHex, timestamp: batch.last.blockTime },
        observedAt: batch.observedAt,
      });
    }
    return written;
  });
}

export function createSolanaChainFactsStore(sql: SqlClient): SolanaChainFactsStore {
  return {
    async getSolanaAddressWatermark(chainDomain, address) {
      const rows = await sql.query<{ last_signature: string; last_slot: string }>(
        `SELECT last_signature, last_slot::text AS last_slot FROM solana_address_watermarks
         WHERE chain_domain = $1 AND address = $2`,
        [chainDomain, address],
      );
      const row = rows[0];
      return row && { lastSignature: row.last_signature, lastSlot: Number(row.last_slot) };
    },

    writeSolanaBatch: (batch) => writeSolanaBatch(sql, batch),

    async awaitingSolanaFills(oifChainId, since, limit) {
      const rows = await sql.query<{
        onchain_order_id: string;
        recipient: string;
        token: string;
        block_timestamp: string;
      }>(
        `SELECT o.onchain_order_id, output->>'recipient' AS recipient, output->>'token' AS token,
                o.block_timestamp::text AS block_timestamp
         FROM chain_order_opens o, jsonb_array_elements(o.standard_order->'outputs') AS output
         WHERE output->>'chainId' = $1 AND o.fill_deadline >= $2
           AND NOT EXISTS (SELECT 1 FROM solana_order_facts f WHERE f.onchain_order_id = o.onchain_order_id AND f.kind = 'fill')
           AND NOT EXISTS (SELECT 1 FROM chain_order_finalisations f WHERE f.onchain_order_id = o.onchain_order_id)
           AND NOT EXISTS (SELECT 1 FROM chain_order_refunds r WHERE r.onchain_order_id = o.onchain_order_id)
         ORDER BY o.block_timestamp DESC, o.onchain_order_id LIMIT $3`,
        [oifChainId, since, limit],
      );
      return rows.map((row) => ({
        onchainOrderId: row.onchain_order_id,
        recipient: row.recipient,
        token: row.token,
        openedAt: Number(row.block_timestamp),
      }));
    },
  };
}
