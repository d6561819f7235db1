import { getTransactionEncoder, type Instruction, type SignatureBytes } from "@solana/kit";
import { compileV0Transaction } from "./compile-v0-transaction.js";
import type { SolanaChain, SolanaTransactionRecord } from "./solana-chain.js";
import type { SolanaKeypair } from "./solana-keypair.js";

/**
 * Builds, signs and sends a v0 transaction of the devnet's own keys (faucet, settler) through the
 * chain's sendTransaction path, preflight included; answers the landed transaction.
 */
export function sendDevnetTransaction(
  chain: SolanaChain,
  feePayer: SolanaKeypair,
  instructions: Instruction[],
  otherSigners: SolanaKeypair[] = [],
): SolanaTransactionRecord {
  const compiled = compileV0Transaction(feePayer.address, chain.latestBlockhash(), instructions);
  const signers = new Map([feePayer, ...otherSigners].map((signer) => [signer.address as string, signer]));
  const signatures = Object.fromEntries(
    Object.keys(compiled.signatures).map((signerAddress) => {
      const signer = signers.get(signerAddress);
      if (!signer) throw new Error(`no devnet key signs for ${signerAddress}`);
      return [signerAddress, signer.sign(Uint8Array.from(compiled.messageBytes)) as SignatureBytes];
    }),
  );
  const bytes = getTransactionEncoder().encode({ ...compiled, signatures });
  const signature = chain.send(Uint8Array.from(bytes));
  const record = chain.transaction(signature);
  if (!record || record.err !== null) throw new Error(`devnet transaction ${signature} did not land`);
  return record;
}
