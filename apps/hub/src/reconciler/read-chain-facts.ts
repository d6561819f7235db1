import type { SqlExecutor } from "@hub/store";
import type {
  ChainFacts,
  ChainLogRef,
  MandateOutputRecord,
  OutputFilledFact,
  StandardOrderRecord,
} from "../order-state/index.js";

interface LogRow {
  onchain_order_id: string;
  chain_domain: string;
  block_number: string;
  block_hash: string;
  block_timestamp: string;
  tx_hash: string;
  log_index: number;
  settler: string;
}

const logColumns = `onchain_order_id, chain_domain, block_number::text AS block_number, block_hash,
  block_timestamp::text AS block_timestamp, tx_hash, log_index, settler`;

function logRef(row: LogRow): ChainLogRef & { settler: string } {
  return {
    chainDomain: row.chain_domain,
    blockNumber: Number(row.block_number),
    blockHash: row.block_hash,
    blockTimestamp: new Date(Number(row.block_timestamp) * 1000).toISOString(),
    txHash: row.tx_hash,
    logIndex: row.log_index,
    settler: row.settler,
  };
}

function parseJson<T>(value: unknown): T {
  return (typeof value === "string" ? JSON.parse(value) : value) as T;
}

/**
 * Every indexed fact for each of the ids, looked up exactly as given (an uppercase or 0x-less id finds
 * nothing). Ids with no fact at all are absent from the map.
 */
export async function readChainFacts(
  sql: SqlExecutor,
  onchainOrderIds: readonly string[],
): Promise<Map<string, ChainFacts>> {
  const facts = new Map<string, ChainFacts>();
  if (onchainOrderIds.length === 0) return facts;
  const ids = [...new Set(onchainOrderIds)];
  const entry = (id: string): ChainFacts => {
    let found = facts.get(id);
    if (!found) {
      found = { onchainOrderId: id, fills: [] };
      facts.set(id, found);
    }
    return found;
  };
  const where = "WHERE onchain_order_id = ANY($1::text[])";
  const [opens, fills, finalisations, refunds] = await Promise.all([
    sql.query<LogRow & { standard_order: unknown }>(
      `SELECT ${logColumns}, standard_order FROM chain_order_opens ${where}`,
      [ids],
    ),
    sql.query<LogRow & { solver: string; fill_timestamp: string; output: unknown; final_amount: string }>(
      `SELECT ${logColumns}, solver, fill_timestamp::text AS fill_timestamp, output, final_amount::text AS final_amount
       FROM chain_output_fills ${where} ORDER BY chain_domain, block_number, log_index`,
      [ids],
    ),
    sql.query<LogRow & { solver: string; destination: string }>(
      `SELECT ${logColumns}, solver, destination FROM chain_order_finalisations ${where}`,
      [ids],
    ),
    sql.query<LogRow>(`SELECT ${logColumns} FROM chain_order_refunds ${where}`, [ids]),
  ]);
  for (const row of opens) {
    entry(row.onchain_order_id).open = {
      ...logRef(row),
      order: parseJson<StandardOrderRecord>(row.standard_order),
    };
  }
  for (const row of fills) {
    const fill: OutputFilledFact = {
      ...logRef(row),
      solver: row.solver,
      timestamp: Number(row.fill_timestamp),
      output: parseJson<MandateOutputRecord>(row.output),
      finalAmount: row.final_amount,
    };
    entry(row.onchain_order_id).fills.push(fill);
  }
  for (const row of finalisations) {
    entry(row.onchain_order_id).finalised = {
      ...logRef(row),
      solver: row.solver,
      destination: row.destination,
    };
  }
  for (const row of refunds) entry(row.onchain_order_id).refunded = logRef(row);
  return facts;
}
