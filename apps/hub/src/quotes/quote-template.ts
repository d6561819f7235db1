import type { StandardOrderJson } from "@hub/chain";
import type { ExecutionTx } from "@hub/contract";
import type { EvmOifLane, OifProduct } from "../lanes/lane-table.js";

/**
 * What a submission needs and the client never sees, stored with every quote so any replica can
 * forward it: the upstream QuoteResponse exactly as received (its integrity checksum included), and
 * what the hub rebuilt from it.
 */
export interface QuoteTemplate {
  version: 1;
  /** The configured provider to forward through (its client: ProviderClients.submitterOf). */
  providerId: string;
  solverId: string;
  lane: EvmOifLane;
  orderType: OifProduct;
  /**
   * `0x00` ‖ signature on Permit2; the raw 65 bytes (or `0x01` ‖ them) on EIP-3009; none on the proxy
   * lanes (the user opens the order through the user proxy, and the upstream is sent no signature).
   */
  signatureScheme: "permit2" | "eip3009" | "none";
  quoteResponse: unknown;
  /** The StandardOrder the escrow opens, rebuilt and checked by the hub. */
  standardOrder: StandardOrderJson;
  /** EIP-712 hash of the disclosed signPayload (what a valid signature signs); signature lanes only. */
  typedDataHash?: `0x${string}`;
  /** Recomputed by the hub (`verified`) on EIP-3009 and the proxy lanes; on Permit2 it comes with the upstream's ack. */
  onchainOrderId?: `0x${string}`;
  onchainOrderIdSource: "upstream" | "verified";
  user: `0x${string}`;
  /** Lowercase 0x; on a destination of another chain family, the recipient's key as that chain writes it. */
  recipient: string;
  /** The upstream's validUntil, unix seconds. */
  validUntil: number;
  /** Proxy lanes: the transactions disclosed to the user, and on oif-swap-token the swap they make. */
  proxy?: {
    userProxy: `0x${string}`;
    executionTx: ExecutionTx;
    swap?: { tokenIn: `0x${string}`; amountIn: string; amountMax: string };
  };
}
