import { createHash } from "node:crypto";
import type { SqlExecutor } from "@hub/store";
import type { StandardOrderRecord } from "../../src/status-rules/standard-order-record.js";

export const SOURCE_DOMAIN = "eip155:31337";
export const DESTINATION_DOMAIN = "eip155:31338";
export const ESCROW = "0x00000000000000000000000000000000000000e1";

let nextBlock = 10;

const h32 = (text: string) => `0x${createHash("sha256").update(text).digest("hex")}`;

/** A one-output StandardOrder from the source chain to the destination chain. */
export function standardOrder(expires: number, fillDeadline: number): StandardOrderRecord {
  return {
    user: "0x00000000000000000000000000000000000000a1",
    nonce: "7",
    originChainId: "31337",
    expires,
    fillDeadline,
    inputOracle: "0x00000000000000000000000000000000000000e3",
    inputs: [["970", "1000000"]],
    outputs: [
      {
        oracle: h32("oracle"),
        settler: h32("settler"),
        chainId: "31338",
        token: h32("token"),
        amount: "990000",
        recipient: h32("recipient"),
        callbackData: "0x",
        context: "0x",
      },
    ],
  };
}

/** Sets a chain's watermark (block number and its unix-seconds timestamp). */
export async function setWatermark(
  sql: SqlExecutor,
  chainDomain: string,
  chainId: number,
  block: number,
  timestamp: number,
): Promise<void> {
  await sql.query(
    `INSERT INTO chain_watermarks (chain_domain, chain_id, last_block, last_block_hash, last_block_timestamp, updated_at)
     VALUES ($1, $2, $3, $4, $5, now())
     ON CONFLICT (chain_domain) DO UPDATE SET last_block = excluded.last_block,
       last_block_hash = excluded.last_block_hash, last_block_timestamp = excluded.last_block_timestamp,
       updated_at = excluded.updated_at`,
    [chainDomain, chainId, block, h32(`block:${chainDomain}:${block}`), timestamp],
  );
}

/** Writes the chain facts the reconciler would index: an Open, and optionally a fill, Finalised or Refunded. */
export async function seedChainFacts(
  sql: SqlExecutor,
  onchainOrderId: string,
  order: StandardOrderRecord,
  facts: { open?: boolean; fill?: boolean; settle?: boolean; refund?: boolean },
): Promise<{ openTx: string }> {
  nextBlock += 1;
  const block = nextBlock;
  const log = (kind: string, domain: string) => [
    onchainOrderId,
    domain,
    block,
    h32(`block:${kind}:${onchainOrderId}`),
    order.fillDeadline - 10,
    h32(`tx:${kind}:${onchainOrderId}`),
    0,
  ];
  const columns =
    "onchain_order_id, chain_domain, block_number, block_hash, block_timestamp, tx_hash, log_index";
  const openTx = h32(`tx:open:${onchainOrderId}`);
  if (facts.open !== false) {
    await sql.query(
      `INSERT INTO chain_order_opens (${columns}, settler, order_user, fill_deadline, expires, standard_order, observed_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12::jsonb, now())`,
      [
        ...log("open", SOURCE_DOMAIN),
        ESCROW,
        order.user,
        order.fillDeadline,
        order.expires,
        JSON.stringify(order),
      ],
    );
  }
  if (facts.fill) {
    const output = order.outputs[0];
    await sql.query(
      `INSERT INTO chain_output_fills (${columns}, settler, solver, fill_timestamp, output, final_amount, observed_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, '0x00000000000000000000000000000000000000e2',
         $8, $9, $10::jsonb, $11, now())`,
      [
        ...log("fill", DESTINATION_DOMAIN),
        h32("solver"),
        order.fillDeadline - 10,
        JSON.stringify(output),
        output?.amount ?? "0",
      ],
    );
  }
  if (facts.settle) {
    await sql.query(
      `INSERT INTO chain_order_finalisations (${columns}, settler, solver, destination, observed_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, now())`,
      [...log("settle", SOURCE_DOMAIN), ESCROW, h32("solver"), h32("destination")],
    );
  }
  if (facts.refund) {
    await sql.query(
      `INSERT INTO chain_order_refunds (${columns}, settler, observed_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, now())`,
      [...log("refund", SOURCE_DOMAIN), ESCROW],
    );
  }
  return { openTx };
}
