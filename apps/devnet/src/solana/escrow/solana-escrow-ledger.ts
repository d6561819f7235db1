import type { Address } from "@solana/kit";
import { findAssociatedTokenPda, TOKEN_PROGRAM_ADDRESS } from "@solana-program/token";
import type { SolanaChain } from "../solana-chain.js";
import type { SolanaKeypair } from "../solana-keypair.js";
import type { SolanaEscrowOrder } from "./solana-escrow-order.js";

/** What the escrow's operations share: the registered orders, the vaults and who is being settled. */
export interface SolanaEscrowLedger {
  readonly chain: SolanaChain;
  readonly settler: SolanaKeypair;
  readonly orders: Map<string, SolanaEscrowOrder>;
  /** Registered orders not yet released or refunded: what refundExpired looks at. */
  readonly unsettled: Set<string>;
  readonly vaults: Map<string, Promise<Address>>;
  readonly settling: Set<string>;
}

export function createSolanaEscrowLedger(config: {
  chain: SolanaChain;
  settler: SolanaKeypair;
}): SolanaEscrowLedger {
  return {
    chain: config.chain,
    settler: config.settler,
    orders: new Map(),
    unsettled: new Set(),
    vaults: new Map(),
    settling: new Set(),
  };
}

/** The vault token account of a mint (the settler's associated token account). */
export function escrowVault(ledger: SolanaEscrowLedger, mint: Address): Promise<Address> {
  const { vaults, settler } = ledger;
  let found = vaults.get(mint);
  if (!found) {
    found = findAssociatedTokenPda({
      owner: settler.address,
      mint,
      tokenProgram: TOKEN_PROGRAM_ADDRESS,
    }).then(([pda]) => pda);
    vaults.set(mint, found);
  }
  return found;
}
