import {
  addressToBytes32,
  type MandateOutput,
  mandateOutputToJson,
  solanaEscrowOrderId,
  solanaKeyToBytes32,
  solanaMessageDigest,
  solanaOutputHash,
} from "@hub/chain";
import type { CatalogChain, CatalogSolanaChain } from "@hub/contract";
import {
  address,
  appendTransactionMessageInstructions,
  compileTransactionMessage,
  createNoopSigner,
  createTransactionMessage,
  getCompiledTransactionMessageEncoder,
  type Instruction,
  pipe,
  setTransactionMessageFeePayer,
  setTransactionMessageLifetimeUsingBlockhash,
} from "@solana/kit";
import {
  findAssociatedTokenPda,
  getTransferCheckedInstruction,
  TOKEN_PROGRAM_ADDRESS,
} from "@solana-program/token";

// Upstream answers built by the test exactly as docs/decisions/solana-lane.md says, with @solana/kit,
// each with one knob to tamper with what a dishonest solver could change.

const MEMO_PROGRAM = address("MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr");

/** What an oif-svm-escrow-v0 answer states, and how it departs from the contract. */
export interface SolanaAnswerTerms {
  solverId: string;
  quoteId: string;
  sender: string;
  feePayer: string;
  chain: CatalogSolanaChain;
  mint: string;
  decimals: number;
  amount: bigint;
  outputAmount: bigint;
  /** The EVM destination and its recipient (lowercase 0x). */
  destination: CatalogChain;
  destinationToken: `0x${string}`;
  recipient: `0x${string}`;
  blockhash: string;
  nowSeconds: number;
  /** The solver's u64 nonce among the escrow order's terms; 1 unless given. */
  nonce?: bigint;
  tamper?: {
    /** A third instruction after the memo: another transferChecked from the sender. */
    extraInstruction?: boolean;
    /** transferChecked moves this much instead of escrowOrder.amount. */
    transferAmount?: bigint;
    /** transferChecked pays this token account instead of the catalog's vault. */
    vault?: string;
  };
}

/** A QuoteResponse in the specification's dialect (`provider` names the solver). */
// biome-ignore lint/suspicious/noExplicitAny: tests doctor the answer's JSON.
export async function solanaAnswer(terms: SolanaAnswerTerms): Promise<Record<string, any>> {
  const fillDeadline = terms.nowSeconds + 600;
  const expires = fillDeadline + 3600;
  const output: MandateOutput = {
    oracle: addressToBytes32(terms.destination.inputOracle as `0x${string}`),
    settler: addressToBytes32(terms.destination.outputSettler as `0x${string}`),
    chainId: BigInt(terms.destination.chainId),
    token: addressToBytes32(terms.destinationToken),
    amount: terms.outputAmount,
    recipient: addressToBytes32(terms.recipient),
    callbackData: "0x",
    context: "0x",
  };
  const outputHash = solanaOutputHash(fillDeadline, output);
  const escrowOrder = {
    user: terms.sender,
    mint: terms.mint,
    amount: terms.amount,
    expires,
    nonce: terms.nonce ?? 1n,
    outputHash,
  };
  const orderId = solanaEscrowOrderId(escrowOrder);
  const vault = terms.chain.escrow.vaults.find((v) => v.mint === terms.mint)!.vault;
  const [source] = await findAssociatedTokenPda({
    owner: address(terms.sender),
    mint: address(terms.mint),
    tokenProgram: TOKEN_PROGRAM_ADDRESS,
  });
  const transfer = (amount: bigint, destination: string): Instruction =>
    getTransferCheckedInstruction({
      source,
      mint: address(terms.mint),
      destination: address(destination),
      authority: createNoopSigner(address(terms.sender)),
      amount,
      decimals: terms.decimals,
    });
  const memo: Instruction = {
    programAddress: MEMO_PROGRAM,
    accounts: [],
    data: new TextEncoder().encode(orderId),
  };
  const instructions = [
    transfer(terms.tamper?.transferAmount ?? terms.amount, terms.tamper?.vault ?? vault),
    memo,
    ...(terms.tamper?.extraInstruction ? [transfer(1n, terms.tamper.vault ?? vault)] : []),
  ];
  const message = pipe(
    createTransactionMessage({ version: 0 }),
    (m) => setTransactionMessageFeePayer(address(terms.feePayer), m),
    (m) =>
      setTransactionMessageLifetimeUsingBlockhash(
        // biome-ignore lint/suspicious/noExplicitAny: the blockhash is the chain's, base58.
        { blockhash: terms.blockhash as any, lastValidBlockHeight: 1_000_000n },
        m,
      ),
    (m) => appendTransactionMessageInstructions(instructions, m),
  );
  const bytes = new Uint8Array(
    getCompiledTransactionMessageEncoder().encode(compileTransactionMessage(message)),
  );
  return {
    quoteId: terms.quoteId,
    provider: terms.solverId,
    order: {
      type: "oif-svm-escrow-v0",
      payload: {
        signatureType: "ed25519",
        transactionMessage: Buffer.from(bytes).toString("base64"),
        digest: solanaMessageDigest(bytes),
        sender: terms.sender,
        feePayer: terms.feePayer,
        escrowOrder: {
          user: terms.sender,
          mint: terms.mint,
          amount: terms.amount.toString(),
          expires,
          nonce: escrowOrder.nonce.toString(),
          outputHash,
          orderId,
        },
        fillDeadline,
        output: mandateOutputToJson(output),
      },
    },
    validUntil: terms.nowSeconds + 60,
    eta: 30,
    preview: {
      inputs: [{ asset: terms.mint, amount: terms.amount.toString() }],
      outputs: [{ asset: terms.destinationToken, amount: terms.outputAmount.toString() }],
    },
  };
}

/** What a Permit2 answer paid on Solana states. */
export interface EvmToSolanaAnswerTerms {
  solverId: string;
  quoteId: string;
  source: CatalogChain;
  token: `0x${string}`;
  user: `0x${string}`;
  amount: bigint;
  outputAmount: bigint;
  chain: CatalogSolanaChain;
  mint: string;
  recipient: string;
  nowSeconds: number;
}

/** A oif-escrow-v0 (Permit2) QuoteResponse whose one output is paid on the Solana chain. */
export function evmToSolanaAnswer(terms: EvmToSolanaAnswerTerms): Record<string, unknown> {
  const settler = solanaKeyToBytes32(terms.chain.outputSettler);
  const output: MandateOutput = {
    oracle: settler,
    settler,
    chainId: BigInt(terms.chain.oifChainId),
    token: solanaKeyToBytes32(terms.mint),
    amount: terms.outputAmount,
    recipient: solanaKeyToBytes32(terms.recipient),
    callbackData: "0x",
    context: "0x",
  };
  return permit2Answer(terms, output);
}

/** An oif-escrow-v0 (Permit2) QuoteResponse from the source chain with one output, as given. */
export function permit2Answer(
  terms: Pick<
    EvmToSolanaAnswerTerms,
    "solverId" | "quoteId" | "source" | "token" | "user" | "amount" | "nowSeconds"
  >,
  output: MandateOutput,
): Record<string, unknown> {
  const fillDeadline = terms.nowSeconds + 600;
  return {
    quoteId: terms.quoteId,
    provider: terms.solverId,
    order: {
      type: "oif-escrow-v0",
      payload: {
        signatureType: "eip712",
        domain: { name: "Permit2", chainId: terms.source.chainId, verifyingContract: terms.source.permit2 },
        primaryType: "PermitBatchWitnessTransferFrom",
        message: {
          permitted: [{ token: terms.token, amount: terms.amount.toString() }],
          spender: terms.source.inputSettlers.escrow,
          nonce: "7",
          deadline: fillDeadline.toString(),
          witness: {
            user: terms.user,
            expires: fillDeadline + 3600,
            inputOracle: terms.source.inputOracle,
            outputs: [mandateOutputToJson(output)],
          },
        },
      },
    },
    validUntil: terms.nowSeconds + 60,
    eta: 30,
    preview: {
      inputs: [{ asset: terms.token, amount: terms.amount.toString() }],
      outputs: [{ asset: "output", amount: output.amount.toString() }],
    },
  };
}
