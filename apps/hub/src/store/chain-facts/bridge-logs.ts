import { isStorableText, type SqlClient, type SqlExecutor } from "@hub/store";
import type { ChainLogRef } from "../../status-rules/index.js";
import type { BridgeLog } from "../chain-log.js";

export interface BridgeDepositLog extends ChainLogRef {
  bridge: string;
  destinationChainId: string;
  amount: string;
  recipient: string;
}

export interface BridgeReleaseLog extends ChainLogRef {
  bridge: string;
  amount: string;
  recipient: string;
}

interface BridgeLogRow {
  chain_domain: string;
  tx_hash: string;
  log_index: number;
  block_number: string;
  block_hash: string;
  block_timestamp: string;
  bridge: string;
  amount: string;
  recipient: string;
}

const bridgeLogColumns = `chain_domain, tx_hash, log_index, block_number::text AS block_number, block_hash,
  block_timestamp::text AS block_timestamp, bridge, amount::text AS amount, recipient`;

function bridgeLogOf(row: BridgeLogRow): BridgeReleaseLog {
  return {
    chainDomain: row.chain_domain,
    txHash: row.tx_hash,
    logIndex: Number(row.log_index),
    blockNumber: Number(row.block_number),
    blockHash: row.block_hash,
    blockTimestamp: new Date(Number(row.block_timestamp) * 1000).toISOString(),
    bridge: row.bridge,
    amount: row.amount,
    recipient: row.recipient,
  };
}

/** Writes one Deposited or Released log of an indexed range; returns 1, or 0 for a log written before. */
export async function insertBridgeLog(
  tx: SqlExecutor,
  range: { chainDomain: string; observedAt: Date },
  log: BridgeLog,
  timestamp: number,
): Promise<number> {
  const common = [
    range.chainDomain,
    log.txHash,
    log.logIndex,
    log.blockNumber,
    log.blockHash,
    timestamp,
    log.bridge,
    log.depositId,
    range.observedAt.toISOString(),
  ];
  const head =
    "chain_domain, tx_hash, log_index, block_number, block_hash, block_timestamp, bridge, deposit_id, observed_at";
  const onRepeat = "ON CONFLICT (chain_domain, tx_hash, log_index) DO NOTHING RETURNING 1 AS written";
  const rows =
    log.kind === "bridge-deposited"
      ? await tx.query(
          `INSERT INTO bridge_deposits (${head}, depositor, token, amount, destination_chain_id, recipient, ref)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12::numeric, $13::numeric, $14, $15) ${onRepeat}`,
          [...common, log.depositor, log.token, log.amount, log.destinationChainId, log.recipient, log.ref],
        )
      : await tx.query(
          `INSERT INTO bridge_releases (${head}, token, recipient, amount)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12::numeric) ${onRepeat}`,
          [...common, log.token, log.recipient, log.amount],
        );
  return rows.length;
}

export async function findBridgeLogs(
  sql: SqlClient,
  depositId: string,
): Promise<{ deposit: BridgeDepositLog | undefined; releases: BridgeReleaseLog[] }> {
  if (!isStorableText(depositId)) return { deposit: undefined, releases: [] };
  const [deposits, releases] = await Promise.all([
    sql.query<BridgeLogRow & { destination_chain_id: string }>(
      `SELECT ${bridgeLogColumns}, destination_chain_id::text AS destination_chain_id FROM bridge_deposits
        WHERE deposit_id = $1 ORDER BY block_number, log_index LIMIT 1`,
      [depositId],
    ),
    sql.query<BridgeLogRow>(
      `SELECT ${bridgeLogColumns} FROM bridge_releases WHERE deposit_id = $1 ORDER BY block_number, log_index`,
      [depositId],
    ),
  ]);
  const depositRow = deposits[0];
  return {
    deposit: depositRow && {
      ...bridgeLogOf(depositRow),
      destinationChainId: depositRow.destination_chain_id,
    },
    releases: releases.map(bridgeLogOf),
  };
}
