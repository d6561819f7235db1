import {
  bytes32ToSolanaKey,
  type DevnetSolanaAccount,
  type DevnetSolanaChain,
  type DevnetSolanaToken,
  decodeSolanaInteropAddress,
  type MandateOutput,
  solanaKeyToBytes32,
  solanaOifChainId,
} from "@hub/chain";
import {
  type Address,
  address,
  createNoopSigner,
  createSolanaRpc,
  getTransactionEncoder,
  type Signature,
  type SignatureBytes,
} from "@solana/kit";
import {
  findAssociatedTokenPda,
  getCreateAssociatedTokenIdempotentInstruction,
  getTransferCheckedInstruction,
  TOKEN_PROGRAM_ADDRESS,
} from "@solana-program/token";
import type { Hex } from "viem";
import { compileV0Transaction } from "../solana/compile-v0-transaction.js";
import { memoInstruction } from "../solana/solana-escrow.js";
import { solanaKeypairFromSecretKey } from "../solana/solana-keypair.js";
import { SolverError } from "./solver-error.js";

/** A quote request's output paid on the Solana stand-in: the recipient's owner key and the SPL mint. */
export interface SolanaOutputTarget {
  recipient: string;
  token: DevnetSolanaToken;
  oifChainId: bigint;
  /** bytes32 of the account a fill names as settler and oracle (the catalog's `outputSettler`). */
  outputSettler: Hex;
}

/**
 * The Solana target of a quote request's output, or undefined when the output names no Solana
 * account. The mint must be one of the chain's tokens whose counterparts hold the origin input.
 */
export function solanaOutputTarget(
  solana: DevnetSolanaChain | undefined,
  output: { receiver: string; asset: string },
  input: { chainId: number; token: string },
): SolanaOutputTarget | undefined {
  const receiver = decodeSolanaInteropAddress(output.receiver);
  const asset = decodeSolanaInteropAddress(output.asset);
  if (!receiver && !asset) return undefined;
  if (!receiver || !asset)
    throw new SolverError(400, "INVALID_REQUEST", "a Solana output names both receiver and asset on Solana");
  if (!solana || receiver.genesisHash !== solana.genesisHash || asset.genesisHash !== solana.genesisHash)
    throw new SolverError(422, "UNSUPPORTED_ASSET", "chain not served by this solver");
  const token = solana.tokens.find((t) => t.mint === asset.address);
  if (!token) throw new SolverError(422, "UNSUPPORTED_ASSET", "mint not served by this solver");
  if (!token.counterparts.includes(`eip155:${input.chainId}/erc20:${input.token.toLowerCase()}`))
    throw new SolverError(422, "UNSUPPORTED_ASSET", "input and output must be the same declared asset");
  return {
    recipient: receiver.address,
    token,
    oifChainId: solanaOifChainId(solana.genesisHash),
    outputSettler: solanaKeyToBytes32(solana.escrow.settler.address),
  };
}

/** The single output of an EVM order paid on Solana, as docs/decisions/solana-lane.md fixes it. */
export function solanaMandateOutput(target: SolanaOutputTarget, amount: bigint): MandateOutput {
  return {
    oracle: target.outputSettler,
    settler: target.outputSettler,
    chainId: target.oifChainId,
    token: solanaKeyToBytes32(target.token.mint),
    amount,
    recipient: solanaKeyToBytes32(target.recipient),
    callbackData: "0x",
    context: "0x",
  };
}

/** An oif-3009-v0 metadata output for a Solana output: the MandateOutput's own words (bytes32, decimal chain id). */
export function solanaMetadataOutput(output: MandateOutput) {
  return {
    chainId: output.chainId.toString(),
    asset: output.token,
    amount: output.amount.toString(),
    receiver: output.recipient,
    oracle: output.oracle,
    settler: output.settler,
  };
}

/** `amount` in units of `from` decimals written in `to` decimals, rounded as asked. */
export function rescaleAmount(amount: bigint, from: number, to: number, rounding: "down" | "up"): bigint {
  if (to >= from) return amount * 10n ** BigInt(to - from);
  const divisor = 10n ** BigInt(from - to);
  return rounding === "down" ? amount / divisor : (amount + divisor - 1n) / divisor;
}

/** The memo of a fill: `fill:<orderId>:<solver EVM address>`, both lowercase. */
export function solanaFillMemo(orderId: Hex, solver: string): string {
  return `fill:${orderId.toLowerCase()}:${solver.toLowerCase()}`;
}

export type SolanaFillOutcome =
  | { state: "pending" }
  | { state: "landed"; blockTime: number }
  | { state: "failed"; reason: string };

/** The solver's hand on the Solana stand-in, through its JSON-RPC like any Solana client. */
export interface SolanaFiller {
  /** The solver's Solana key (fee payer of its fills). */
  address: Address;
  /** The solver's token balance of `mint` (0 without a token account). */
  balance(mint: string): Promise<bigint>;
  /** Sends the fill transaction; answers its signature. */
  fill(input: { orderId: Hex; output: MandateOutput; decimals: number; solver: string }): Promise<string>;
  outcome(signature: string): Promise<SolanaFillOutcome>;
}

async function tokenAccount(owner: string, mint: string): Promise<Address> {
  const [ata] = await findAssociatedTokenPda({
    owner: address(owner),
    mint: address(mint),
    tokenProgram: TOKEN_PROGRAM_ADDRESS,
  });
  return ata;
}

/**
 * The fill's instructions, exactly: createAssociatedTokenIdempotent(recipient's token account),
 * transferChecked(solver's token account → it), Memo `fill:<orderId>:<solver>`.
 */
export async function solanaFillInstructions(input: {
  feePayer: string;
  recipient: string;
  mint: string;
  amount: bigint;
  decimals: number;
  memo: string;
}) {
  const payer = createNoopSigner(address(input.feePayer));
  const mint = address(input.mint);
  const destination = await tokenAccount(input.recipient, input.mint);
  return [
    getCreateAssociatedTokenIdempotentInstruction({
      payer,
      ata: destination,
      owner: address(input.recipient),
      mint,
    }),
    getTransferCheckedInstruction({
      source: await tokenAccount(input.feePayer, input.mint),
      mint,
      destination,
      authority: payer,
      amount: input.amount,
      decimals: input.decimals,
    }),
    memoInstruction(input.memo),
  ];
}

export function createSolanaFiller(config: { rpcUrl: string; account: DevnetSolanaAccount }): SolanaFiller {
  const keypair = solanaKeypairFromSecretKey(config.account.secretKey);
  const rpc = createSolanaRpc(config.rpcUrl);
  const lifetimes = new Map<string, bigint>();
  const encoder = getTransactionEncoder();

  return {
    address: keypair.address,
    async balance(mint) {
      const account = await tokenAccount(keypair.address, mint);
      try {
        const { value } = await rpc.getTokenAccountBalance(account).send();
        return BigInt(value.amount);
      } catch {
        return 0n;
      }
    },
    async fill({ orderId, output, decimals, solver }) {
      const instructions = await solanaFillInstructions({
        feePayer: keypair.address,
        recipient: bytes32ToSolanaKey(output.recipient),
        mint: bytes32ToSolanaKey(output.token),
        amount: output.amount,
        decimals,
        memo: solanaFillMemo(orderId, solver),
      });
      const { value: lifetime } = await rpc.getLatestBlockhash().send();
      const compiled = compileV0Transaction(keypair.address, lifetime, instructions);
      const signature = keypair.sign(Uint8Array.from(compiled.messageBytes)) as SignatureBytes;
      const wire = encoder.encode({ ...compiled, signatures: { [keypair.address]: signature } });
      const sent = await rpc
        .sendTransaction(Buffer.from(wire).toString("base64") as never, { encoding: "base64" })
        .send();
      lifetimes.set(sent, lifetime.lastValidBlockHeight);
      return sent;
    },
    async outcome(signature) {
      const { value } = await rpc.getSignatureStatuses([signature as Signature]).send();
      const status = value[0];
      if (!status) {
        const lastValid = lifetimes.get(signature);
        const height = await rpc.getBlockHeight().send();
        // A transaction whose blockhash expired without a status never lands.
        if (lastValid === undefined || height > lastValid)
          return { state: "failed", reason: `fill ${signature} was dropped` };
        return { state: "pending" };
      }
      if (status.err !== null)
        return { state: "failed", reason: `fill ${signature} failed: ${JSON.stringify(status.err)}` };
      const landed = await rpc
        .getTransaction(signature as Signature, { encoding: "json", maxSupportedTransactionVersion: 0 })
        .send();
      if (!landed?.blockTime) return { state: "pending" };
      lifetimes.delete(signature);
      return { state: "landed", blockTime: Number(landed.blockTime) };
    },
  };
}
