import type { Address } from "@solana/kit";
import { escrowHistory } from "./escrow/escrow-history.js";
import { payOut } from "./escrow/pay-out.js";
import { refundExpired } from "./escrow/refund-expired.js";
import { SolanaEscrowError } from "./escrow/solana-escrow-error.js";
import { createSolanaEscrowLedger, escrowVault } from "./escrow/solana-escrow-ledger.js";
import {
  type SolanaEscrowDeposit,
  type SolanaEscrowOrder,
  type SolanaEscrowState,
  solanaEscrowOrderId,
} from "./escrow/solana-escrow-order.js";
import type { SolanaChain } from "./solana-chain.js";
import type { SolanaKeypair } from "./solana-keypair.js";

export {
  compileSolanaDeposit,
  memoInstruction,
  readSolanaDeposit,
  solanaDepositInstructions,
} from "./escrow/solana-deposit.js";
export { SolanaEscrowError } from "./escrow/solana-escrow-error.js";
export {
  type SolanaEscrowDeposit,
  type SolanaEscrowOrder,
  type SolanaEscrowState,
  solanaEscrowOrderId,
} from "./escrow/solana-escrow-order.js";

export interface SolanaEscrow {
  settler: Address;
  /** The vault token account of a mint (the settler's associated token account). */
  vault(mint: Address): Promise<Address>;
  /**
   * Records an order's terms and answers its on-chain order id (what the deposit's memo carries);
   * throws `already-registered` for an id already recorded, as a program would refuse it.
   */
  register(order: SolanaEscrowOrder): `0x${string}`;
  /** The terms registered under an order id, or undefined. */
  order(orderId: string): SolanaEscrowOrder | undefined;
  deposit(orderId: string): Promise<SolanaEscrowDeposit | undefined>;
  state(orderId: string): Promise<SolanaEscrowState>;
  /** Pays the deposit to the solver's token account; call once the fill is proven. Answers the signature. */
  release(orderId: string, solver: Address): Promise<string>;
  /** Pays the deposit back to the user's token account, only after expiry. Answers the signature. */
  refund(orderId: string): Promise<string>;
  /**
   * Refunds every registered order that is deposited, unreleased and past its expiry; answers their ids.
   * An order past its expiry without a deposit is looked at once and then no more.
   */
  refundExpired(): Promise<string[]>;
}

/**
 * The devnet's Solana escrow: a vault token account per mint owned by the settler authority, whose
 * code (not a program) enforces the order's rules before it signs a release or a refund.
 */
export function createSolanaEscrow(config: { chain: SolanaChain; settler: SolanaKeypair }): SolanaEscrow {
  const ledger = createSolanaEscrowLedger(config);
  const { orders, unsettled } = ledger;
  return {
    settler: config.settler.address,
    vault: (mint) => escrowVault(ledger, mint),
    register(order) {
      const orderId = solanaEscrowOrderId(order);
      if (orders.has(orderId))
        throw new SolanaEscrowError("already-registered", `order ${orderId} is already registered`);
      orders.set(orderId, order);
      unsettled.add(orderId);
      return orderId;
    },
    order: (orderId) => orders.get(orderId.toLowerCase()),
    deposit: async (orderId) => (await escrowHistory(ledger, orderId))?.deposit,
    async state(orderId) {
      const found = await escrowHistory(ledger, orderId);
      if (!found) return "unknown";
      return found.settled ?? (found.deposit ? "deposited" : "awaiting-deposit");
    },
    release: (orderId, solver) => payOut(ledger, orderId, "release", () => solver),
    refund: (orderId) => payOut(ledger, orderId, "refund", (order) => order.user),
    refundExpired: () => refundExpired(ledger),
  };
}
