import type { HubOrderStatus, Watermark } from "@hub/contract";
import type { SqlExecutor } from "@hub/store";
import { isOpenFlowTemplate, type OpenFlowTemplate } from "../quotes/open-flow-template.js";

interface RegistrationRow {
  hub_order_id: string;
  quote_id: string;
  org_id: string;
  lane: "open-flow" | "solver-swap";
  submitted_at: Date | string;
  template: Record<string, unknown> | string;
}

interface BridgeLogRow {
  tx_hash: string;
  log_index: number;
  block_number: string;
  block_hash: string;
  block_timestamp: string;
  deposit_id: string;
  amount: string;
  observed_at: Date | string;
}

interface MarkRow {
  chain_domain: string;
  last_block: string;
  updated_at: Date | string;
}

/** An open-flow registration's status view, with the organization it belongs to. */
export interface OpenFlowStatus {
  organization: string;
  status: HubOrderStatus;
}

const LOG_COLUMNS = `tx_hash, log_index, block_number::text AS block_number, block_hash,
  block_timestamp::text AS block_timestamp, deposit_id, amount::text AS amount, observed_at`;

const iso = (value: Date | string) => new Date(value).toISOString();

function observedTransaction(chainDomain: string, row: BridgeLogRow) {
  return {
    chainDomain,
    txHash: row.tx_hash,
    blockNumber: Number(row.block_number),
    blockHash: row.block_hash,
    logIndex: Number(row.log_index),
    at: new Date(Number(row.block_timestamp) * 1000).toISOString(),
    amount: row.amount,
  };
}

/** The first Deposited log on the source chain that carries the quote's ref and exactly its terms. */
async function findDeposit(sql: SqlExecutor, template: OpenFlowTemplate): Promise<BridgeLogRow | undefined> {
  const { deposit } = template;
  if (!deposit) return undefined;
  const rows = await sql.query<BridgeLogRow>(
    `SELECT ${LOG_COLUMNS} FROM bridge_deposits
      WHERE chain_domain = $1 AND ref = $2 AND bridge = $3 AND token = $4 AND amount = $5::numeric
        AND destination_chain_id = $6::numeric AND recipient = $7
      ORDER BY block_number, log_index LIMIT 1`,
    [
      template.source.chainDomain,
      deposit.ref.toLowerCase(),
      deposit.bridge.toLowerCase(),
      deposit.token.toLowerCase(),
      deposit.amount,
      String(deposit.destinationChainId),
      deposit.recipient.toLowerCase(),
    ],
  );
  return rows[0];
}

async function findRelease(
  sql: SqlExecutor,
  chainDomain: string,
  depositId: string,
): Promise<BridgeLogRow | undefined> {
  const rows = await sql.query<BridgeLogRow>(
    `SELECT ${LOG_COLUMNS} FROM bridge_releases WHERE chain_domain = $1 AND deposit_id = $2
      ORDER BY block_number, log_index LIMIT 1`,
    [chainDomain, depositId],
  );
  return rows[0];
}

async function observationMarks(sql: SqlExecutor, chainDomains: string[]): Promise<Watermark[]> {
  const rows = await sql.query<MarkRow>(
    `SELECT chain_domain, last_block::text AS last_block, updated_at
       FROM chain_observation_marks WHERE chain_domain = ANY($1::text[])`,
    [chainDomains],
  );
  const byDomain = new Map(rows.map((row) => [row.chain_domain, row]));
  return chainDomains.flatMap((chainDomain) => {
    const row = byDomain.get(chainDomain);
    return row ? [{ chainDomain, blockNumber: Number(row.last_block), observedAt: iso(row.updated_at) }] : [];
  });
}

/**
 * Builds GET /status/{orderId} from the database: the POST /order registration, its quote's template,
 * and what the reconciler recorded. The deposit is matched on the source chain by the template's ref
 * and exact terms; the release on the destination chain by the deposit id the Deposited log carried.
 * Undefined for any id that is not an open-flow registration (openFor orders included).
 */
export async function readOpenFlowStatus(
  sql: SqlExecutor,
  orderId: string,
): Promise<OpenFlowStatus | undefined> {
  const [registration] = await sql.query<RegistrationRow>(
    `SELECT s.hub_order_id, s.quote_id, s.org_id, r.lane, s.submitted_at, q.template
       FROM open_flow_registrations r
       JOIN submissions s ON s.hub_order_id = r.hub_order_id
       JOIN quotes q ON q.quote_id = r.quote_id
      WHERE r.hub_order_id = $1 AND s.state = 'acked'`,
    [orderId],
  );
  if (!registration) return undefined;
  const createdAt = iso(registration.submitted_at);
  const base = {
    orderId: registration.hub_order_id,
    quoteId: registration.quote_id,
    lane: registration.lane,
    createdAt,
  };
  const template =
    typeof registration.template === "string" ? JSON.parse(registration.template) : registration.template;
  if (registration.lane === "solver-swap" || !isOpenFlowTemplate(template)) {
    return {
      organization: registration.org_id,
      status: { ...base, state: "recorded", final: true, watermarks: [], updatedAt: createdAt },
    };
  }
  const source = template.source.chainDomain;
  const destination = template.destination.chainDomain;
  const deposit = await findDeposit(sql, template);
  const release = deposit && (await findRelease(sql, destination, deposit.deposit_id));
  const watermarks = await observationMarks(sql, source === destination ? [source] : [source, destination]);
  // A deposit indexed before the registration arrived changed nothing after createdAt.
  const createdAtMs = Date.parse(createdAt);
  const later = (observedAt: Date | string) =>
    new Date(Math.max(new Date(observedAt).getTime(), createdAtMs)).toISOString();
  const status: HubOrderStatus = release
    ? {
        ...base,
        state: "released",
        final: true,
        updatedAt: later(release.observed_at),
        watermarks,
      }
    : deposit
      ? { ...base, state: "deposited", final: false, updatedAt: later(deposit.observed_at), watermarks }
      : { ...base, state: "registered", final: false, updatedAt: createdAt, watermarks };
  if (deposit) {
    status.depositId = deposit.deposit_id;
    status.sourceTx = observedTransaction(source, deposit);
  }
  if (release) status.destinationTx = observedTransaction(destination, release);
  return { organization: registration.org_id, status };
}
