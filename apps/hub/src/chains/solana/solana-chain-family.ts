import { decodeSolanaInteropAddress, encodeSolanaInteropAddress, solanaKeyToBytes32 } from "@hub/chain";
import { isSolanaAddress } from "@hub/contract";
import { solanaQuoteBlockOf } from "../../quotes/solana-quote-template.js";
import type { CatalogSolanaChain } from "@hub/contract";
import type { ChainFamily } from "../chain-family.js";
import { createSolanaChainIndexer, type SolanaIndexerOptions } from "./create-solana-chain-indexer.js";
import { solanaChainRpcCheck, solanaReconcilerLagCheck } from "./solana-readiness-checks.js";
import type { SolanaReconcilerChainConfig } from "./solana-reconciler-chain-config.js";
import { solanaRefund } from "./solana-refund.js";
import { normaliseSolanaEnvelope, verifySolanaEnvelope } from "./verify-solana-envelope.js";

/** The Solana family: slot-based readiness, the escrow deposit's refund view, the Ed25519 envelope. */
/** A route's side on a Solana chain, as the family reads it (quotes' SolanaRouteEnd). */
interface SolanaEnd {
  chain: CatalogSolanaChain;
  mint: string;
}

export const solanaChainFamily: ChainFamily<SolanaReconcilerChainConfig, SolanaEnd, SolanaIndexerOptions> = {
  name: "solana",
  indexer: createSolanaChainIndexer,
  // Accounts and mints as Solana interop addresses (docs/decisions/solana-lane.md).
  oif: {
    interop: (end, account) => ({
      account: encodeSolanaInteropAddress(end.chain.genesisHash, account),
      asset: encodeSolanaInteropAddress(end.chain.genesisHash, end.mint),
    }),
    // Its oifChainId, the mint's key, the catalog's outputSettler as both settler and oracle, the recipient's key.
    expectedOutput(end, recipient) {
      const settler = solanaKeyToBytes32(end.chain.outputSettler);
      return {
        chainId: BigInt(end.chain.oifChainId),
        token: solanaKeyToBytes32(end.mint),
        settler,
        oracle: settler,
        recipient: solanaKeyToBytes32(recipient),
        names: { chain: end.chain.oifChainId, token: end.mint, recipient },
      };
    },
    // A Solana interop address (of this chain) or a base58 key.
    outputAccount(value, end) {
      const interop = decodeSolanaInteropAddress(value);
      if (interop) {
        if (interop.genesisHash !== end.chain.genesisHash) return { refusal: "names another Solana chain" };
        return solanaKeyToBytes32(interop.address);
      }
      if (typeof value === "string" && isSolanaAddress(value)) return solanaKeyToBytes32(value);
      return undefined;
    },
  },
  readinessChecks: (chain, context) => [
    solanaChainRpcCheck(chain),
    ...(context.watermarks
      ? [solanaReconcilerLagCheck(chain, context.watermarks, context.maxLag.slots, context.staleness)]
      : []),
  ],
  refundView(orderId, loaded, chainDomain, watermarks) {
    const deposit = loaded.facts.escrowDeposit;
    if (loaded.facts.open || !deposit) return undefined;
    if (chainDomain !== undefined && deposit.chainDomain !== chainDomain) return undefined;
    return solanaRefund(orderId, loaded, deposit, watermarks);
  },
  openForEnvelope: {
    signature: "solana-envelope",
    normalise: normaliseSolanaEnvelope,
    verify: (template, value) => verifySolanaEnvelope(solanaQuoteBlockOf(template), value),
  },
};
