import { createHash } from "node:crypto";
import type { SqlExecutor } from "@hub/store";
import { DESTINATION_DOMAIN, SOURCE_DOMAIN } from "./onchain-views-seed.js";

/** Block timestamps are T + block number. */
export const T = 1_800_000_000;
export const BRIDGE = "0x00000000000000000000000000000000000000b1";
export const TOKEN = "0x00000000000000000000000000000000000000c1";
export const RECIPIENT = "0x00000000000000000000000000000000000000a7";
export const h32 = (text: string) =>
  `0x${createHash("sha256").update(`onchain-views-bridge:${text}`).digest("hex")}`;

/** A Deposited log as the reconciler indexes it: source chain, to the destination chain 31338. */
export async function seedDeposit(sql: SqlExecutor, depositId: string, block: number): Promise<string> {
  const txHash = h32(`deposit-tx:${depositId}`);
  await sql.query(
    `INSERT INTO bridge_deposits (chain_domain, tx_hash, log_index, block_number, block_hash, block_timestamp,
       bridge, deposit_id, depositor, token, amount, destination_chain_id, recipient, ref, observed_at)
     VALUES ($1, $2, 1, $3, $4, $5, $6, $7, $8, $9, 2500000, 31338, $10, $11, now())`,
    [
      SOURCE_DOMAIN,
      txHash,
      block,
      h32(`block:${SOURCE_DOMAIN}:${block}`),
      T + block,
      BRIDGE,
      depositId,
      RECIPIENT,
      TOKEN,
      RECIPIENT,
      h32(`ref:${depositId}`),
    ],
  );
  return txHash;
}

/** A Released log on a chain (the destination unless told), paying 2490000 to RECIPIENT. */
export async function seedRelease(
  sql: SqlExecutor,
  depositId: string,
  block: number,
  chainDomain = DESTINATION_DOMAIN,
): Promise<string> {
  const txHash = h32(`release-tx:${chainDomain}:${depositId}`);
  await sql.query(
    `INSERT INTO bridge_releases (chain_domain, tx_hash, log_index, block_number, block_hash, block_timestamp,
       bridge, deposit_id, token, recipient, amount, observed_at)
     VALUES ($1, $2, 0, $3, $4, $5, $6, $7, $8, $9, 2490000, now())`,
    [
      chainDomain,
      txHash,
      block,
      h32(`block:${chainDomain}:${block}`),
      T + block,
      BRIDGE,
      depositId,
      TOKEN,
      RECIPIENT,
    ],
  );
  return txHash;
}
