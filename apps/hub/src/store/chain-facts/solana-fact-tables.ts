import { addressToBytes32, solanaKeyToBytes32 } from "@hub/chain";
import type { SqlExecutor } from "@hub/store";
import type { ChainLogRef, MandateOutputRecord, EscrowDepositFact } from "../../status-rules/index.js";
import type { SolanaOrderFact } from "../solana-order-fact.js";
import type { SolanaQuoteBlock } from "../solana-quote-block.js";
import type { ChainFactsEntry, FamilyFactTables } from "./family-fact-tables.js";
import { parseJson } from "./parse-json.js";
import { solanaOrderTerms } from "./solana-order-terms.js";

interface SolanaFactRow {
  onchain_order_id: string;
  chain_domain: string;
  signature: string;
  kind: SolanaOrderFact["kind"];
  slot: string;
  block_time: string;
  instruction_index: number;
  mint: string;
  amount: string;
  authority: string;
  destination: string;
  destination_owner: string;
  evm_solver: string | null;
  output_settler: string | null;
  output: unknown;
}

function solanaRef(row: SolanaFactRow): ChainLogRef {
  return {
    chainDomain: row.chain_domain,
    blockNumber: Number(row.slot),
    blockHash: "",
    blockTimestamp: new Date(Number(row.block_time) * 1000).toISOString(),
    txHash: row.signature,
    logIndex: row.instruction_index,
  };
}

function hex32OfKey(key: string): string {
  try {
    return solanaKeyToBytes32(key);
  } catch {
    return `0x${"0".repeat(64)}`;
  }
}

/** Adds one Solana fact to its order's facts. */
function addSolanaFact(
  entry: ChainFactsEntry,
  row: SolanaFactRow,
  terms: ReadonlyMap<string, SolanaQuoteBlock | undefined>,
): void {
  const found = entry(row.onchain_order_id);
  const ref = solanaRef(row);
  // The escrow honours the first deposit, release or refund of an order; later ones change nothing.
  if (row.kind === "deposit" && !found.escrowDeposit) {
    const deposit: EscrowDepositFact = {
      ...ref,
      settler: row.destination_owner,
      vault: row.destination,
      user: row.authority,
      mint: row.mint,
      amount: row.amount,
    };
    const known = solanaOrderTerms(row.onchain_order_id, terms.get(row.onchain_order_id));
    if (known) deposit.terms = known;
    found.escrowDeposit = deposit;
  } else if (row.kind === "release" && !found.finalised) {
    found.finalised = {
      ...ref,
      settler: row.authority,
      solver: hex32OfKey(row.destination_owner),
      destination: row.destination,
    };
  } else if (row.kind === "refund" && !found.refunded) {
    found.refunded = { ...ref, settler: row.authority };
  } else if (row.kind === "fill" && row.evm_solver) {
    found.fills.push({
      ...ref,
      settler: row.output_settler ?? "",
      solver: addressToBytes32(row.evm_solver as `0x${string}`),
      timestamp: Number(row.block_time),
      output: parseJson<MandateOutputRecord>(row.output),
      finalAmount: row.amount,
    });
  }
}

async function readSolanaFacts(
  sql: SqlExecutor,
  ids: readonly string[],
): Promise<(entry: ChainFactsEntry) => void> {
  const [solana, solanaQuotes] = await Promise.all([
    sql.query<SolanaFactRow>(
      `SELECT onchain_order_id, chain_domain, signature, kind, slot::text AS slot, block_time::text AS block_time,
         instruction_index, mint, amount::text AS amount, authority, destination, destination_owner, evm_solver,
         output->>'settler' AS output_settler, output
       FROM solana_order_facts WHERE onchain_order_id = ANY($1::text[]) ORDER BY chain_domain, slot, signature`,
      [ids],
    ),
    sql.query<{ onchain_order_id: string; solana: unknown }>(
      `SELECT DISTINCT ON (onchain_order_id) onchain_order_id, template->'solana' AS solana
       FROM quotes WHERE onchain_order_id = ANY($1::text[]) AND lane = 'oif-escrow-nonevm'
       ORDER BY onchain_order_id, issued_at`,
      [ids],
    ),
  ]);
  const terms = new Map(
    solanaQuotes.map((row) => [
      row.onchain_order_id,
      parseJson<SolanaQuoteBlock | null>(row.solana) ?? undefined,
    ]),
  );
  return (entry) => {
    for (const row of solana) addSolanaFact(entry, row, terms);
  };
}

/** The Solana family's fact tables: its chains are named by genesis hash and indexed by address history. */
export const solanaFactTables: FamilyFactTables = {
  owns: (chainDomain) => chainDomain.startsWith("solana:"),
  oifChainIdOf: (lastBlockHash) => BigInt(lastBlockHash).toString(),
  historyTables: ["solana_order_facts", "solana_address_watermarks"],
  transactionEvents: `SELECT onchain_order_id,
         CASE kind WHEN 'deposit' THEN 'open' WHEN 'release' THEN 'settle' ELSE kind END,
         instruction_index
       FROM solana_order_facts WHERE chain_domain = $1 AND signature = $2`,
  readFacts: readSolanaFacts,
};
