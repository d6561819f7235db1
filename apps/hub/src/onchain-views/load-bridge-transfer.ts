import type { SqlExecutor } from "@hub/store";
import type { ChainLogRef } from "../order-state/chain-facts.js";
import type { ChainWatermark } from "../reconciler/get-watermark.js";

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

/** An open-flow bridge transfer as indexed: its deposit, its release, or both (at least one). */
export interface BridgeTransfer {
  depositId: string;
  deposit?: BridgeDepositLog;
  release?: BridgeReleaseLog;
}

interface LogRow {
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

const LOG_COLUMNS = `chain_domain, tx_hash, log_index, block_number::text AS block_number, block_hash,
  block_timestamp::text AS block_timestamp, bridge, amount::text AS amount, recipient`;

function logOf(row: LogRow): ChainLogRef & { bridge: string; amount: string; recipient: string } {
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

/**
 * The bridge transfer a depositId names, from the indexed Deposited and Released logs; undefined when
 * neither is indexed. The depositId hashes the source chain id and the bridge address, so it names one
 * deposit; its release counts only on the chain the deposit names as destination (any chain while the
 * deposit is not indexed). Exact match: an uppercase or 0x-less id finds nothing.
 */
export async function loadBridgeTransfer(
  sql: SqlExecutor,
  depositId: string,
  watermarks: readonly ChainWatermark[],
): Promise<BridgeTransfer | undefined> {
  const [deposits, releases] = await Promise.all([
    sql.query<LogRow & { destination_chain_id: string }>(
      `SELECT ${LOG_COLUMNS}, destination_chain_id::text AS destination_chain_id FROM bridge_deposits
        WHERE deposit_id = $1 ORDER BY block_number, log_index LIMIT 1`,
      [depositId],
    ),
    sql.query<LogRow>(
      `SELECT ${LOG_COLUMNS} FROM bridge_releases WHERE deposit_id = $1 ORDER BY block_number, log_index`,
      [depositId],
    ),
  ]);
  const depositRow = deposits[0];
  const deposit = depositRow && {
    ...logOf(depositRow),
    destinationChainId: depositRow.destination_chain_id,
  };
  const destinations = deposit
    ? new Set(
        watermarks
          .filter((watermark) => String(watermark.chainId) === deposit.destinationChainId)
          .map((watermark) => watermark.chainDomain),
      )
    : undefined;
  const releaseRow = releases.find((row) => !destinations || destinations.has(row.chain_domain));
  if (!deposit && !releaseRow) return undefined;
  const transfer: BridgeTransfer = { depositId };
  if (deposit) transfer.deposit = deposit;
  if (releaseRow) transfer.release = logOf(releaseRow);
  return transfer;
}
