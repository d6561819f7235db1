import type { SqlExecutor } from "@hub/store";
import type {
  ChainLogRef,
  MandateOutputRecord,
  OutputFilledFact,
  StandardOrderRecord,
} from "../../status-rules/index.js";
import type { ChainFactsEntry } from "./family-fact-tables.js";
import { parseJson } from "./parse-json.js";

interface FactRow {
  onchain_order_id: string;
  chain_domain: string;
  block_number: string;
  block_hash: string;
  block_timestamp: string;
  tx_hash: string;
  log_index: number;
  settler: string;
}

const factColumns = `onchain_order_id, chain_domain, block_number::text AS block_number, block_hash,
  block_timestamp::text AS block_timestamp, tx_hash, log_index, settler`;

function factRef(row: FactRow): ChainLogRef & { settler: string } {
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

/**
 * Starts reading the EVM escrow facts of the ids (opens, fills, finalisations, refunds); the step it
 * resolves to adds them to the facts.
 */
export async function readEvmOrderFacts(
  sql: SqlExecutor,
  ids: readonly string[],
): Promise<(entry: ChainFactsEntry) => void> {
  const where = "WHERE onchain_order_id = ANY($1::text[])";
  const [opens, fills, finalisations, refunds] = await Promise.all([
    sql.query<FactRow & { standard_order: unknown }>(
      `SELECT ${factColumns}, standard_order FROM chain_order_opens ${where}`,
      [ids],
    ),
    sql.query<FactRow & { solver: string; fill_timestamp: string; output: unknown; final_amount: string }>(
      `SELECT ${factColumns}, solver, fill_timestamp::text AS fill_timestamp, output, final_amount::text AS final_amount
       FROM chain_output_fills ${where} ORDER BY chain_domain, block_number, log_index`,
      [ids],
    ),
    sql.query<FactRow & { solver: string; destination: string }>(
      `SELECT ${factColumns}, solver, destination FROM chain_order_finalisations ${where}`,
      [ids],
    ),
    sql.query<FactRow>(`SELECT ${factColumns} FROM chain_order_refunds ${where}`, [ids]),
  ]);
  return (entry) => {
    for (const row of opens) {
      entry(row.onchain_order_id).open = {
        ...factRef(row),
        order: parseJson<StandardOrderRecord>(row.standard_order),
      };
    }
    for (const row of fills) {
      const fill: OutputFilledFact = {
        ...factRef(row),
        solver: row.solver,
        timestamp: Number(row.fill_timestamp),
        output: parseJson<MandateOutputRecord>(row.output),
        finalAmount: row.final_amount,
      };
      entry(row.onchain_order_id).fills.push(fill);
    }
    for (const row of finalisations) {
      entry(row.onchain_order_id).finalised = {
        ...factRef(row),
        solver: row.solver,
        destination: row.destination,
      };
    }
    for (const row of refunds) entry(row.onchain_order_id).refunded = factRef(row);
  };
}
