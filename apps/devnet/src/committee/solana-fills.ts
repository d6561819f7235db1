import {
  addressToBytes32,
  type Attestation,
  bytes32ToSolanaKey,
  type DevnetManifest,
  fillDescriptionHash,
  inputSettlerEscrowAbi,
  type MandateOutput,
  solanaKeyToBytes32,
  solanaOifChainId,
} from "@hub/chain";
import { address } from "@solana/kit";
import { findAssociatedTokenPda, TOKEN_PROGRAM_ADDRESS } from "@solana-program/token";
import { getAbiItem, type Hex } from "viem";
import type { ChainClients } from "../create-chain-clients.js";
import { createLogCursor, type LogCursor } from "../create-log-cursor.js";
import {
  memoProgramAddress,
  type SolanaChain,
  type SolanaTransactionRecord,
} from "../solana/solana-chain.js";

const openEvent = getAbiItem({ abi: inputSettlerEscrowAbi, name: "Open" });
const associatedTokenProgramAddress = "ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL";
const createIdempotentDiscriminator = 1;
const transferCheckedDiscriminator = 12;

/** A fill of an EVM order's Solana output, proven by the transaction that paid the recipient. */
export interface SolanaFill {
  orderId: Hex;
  originChainId: number;
  /** bytes32 of the EVM address the memo names: who the origin escrow pays. */
  solver: Hex;
  /** The slot's blockTime. */
  fillTimestamp: number;
  /** The Solana signature. */
  signature: string;
  attestation: Attestation;
}

/** An opened EVM order whose single output is paid on Solana, and where its fill must land. */
export interface SolanaFillTarget {
  orderId: Hex;
  originChainId: number;
  fillDeadline: number;
  output: MandateOutput;
  recipient: string;
  mint: string;
  /** The recipient's associated token account, whose history carries the fill. */
  tokenAccount: string;
}

interface WatchedOrder extends SolanaFillTarget {
  /** Newest signature of the token account's history already read. */
  watermark?: string;
}

export interface SolanaFillReader {
  /** Fills that landed since the last call, each order's first valid fill once. */
  next(): Promise<SolanaFill[]>;
}

/**
 * Reads fills on the Solana stand-in for the committee, enforcing in code what an output-settler
 * program would: the transaction is exactly createAssociatedTokenIdempotent(recipient's token
 * account), transferChecked of the output's amount of its mint into it, and Memo
 * `fill:<orderId>:<solver>`; it landed by the fill deadline; the output names the chain's settler as
 * settler and oracle; only an order's first such fill counts. Orders are found by their Open on the
 * EVM escrows (the output says where to look); the fill by the recipient token account's history.
 */
export function createSolanaFillReader(config: {
  manifest: DevnetManifest;
  clients: ChainClients;
  chain: SolanaChain;
}): SolanaFillReader {
  const { manifest, clients, chain } = config;
  const solana = manifest.solana;
  if (!solana) throw new Error("the manifest has no Solana chain");
  const oifChainId = solanaOifChainId(solana.genesisHash);
  const settler = solanaKeyToBytes32(solana.escrow.settler.address);
  const watched = new Map<Hex, WatchedOrder>();
  const cursors = new Map<number, LogCursor<typeof openEvent>>();
  for (const evm of manifest.chains)
    cursors.set(
      evm.chainId,
      createLogCursor({
        client: clients.get(evm.chainId).publicClient,
        address: evm.contracts.inputSettlerEscrow,
        event: openEvent,
        fromBlock: BigInt(evm.deployBlock),
      }),
    );

  async function readOpens(): Promise<void> {
    for (const [originChainId, cursor] of cursors) {
      for (const open of await cursor.next()) {
        const { orderId, order } = open.args;
        const output = order.outputs[0];
        if (order.outputs.length !== 1 || output?.chainId !== oifChainId) continue;
        if (output.settler.toLowerCase() !== settler || output.oracle.toLowerCase() !== settler) continue;
        if (output.callbackData !== "0x" || output.context !== "0x") continue;
        const recipient = bytes32ToSolanaKey(output.recipient);
        const mint = bytes32ToSolanaKey(output.token);
        const [tokenAccount] = await findAssociatedTokenPda({
          owner: address(recipient),
          mint: address(mint),
          tokenProgram: TOKEN_PROGRAM_ADDRESS,
        });
        watched.set(orderId, {
          orderId,
          originChainId,
          fillDeadline: order.fillDeadline,
          output,
          recipient,
          mint,
          tokenAccount,
        });
      }
    }
  }

  return {
    async next() {
      await readOpens();
      const found: SolanaFill[] = [];
      for (const order of watched.values()) {
        const records = chain.signaturesForAddress(order.tokenAccount, {
          limit: Number.MAX_SAFE_INTEGER,
          ...(order.watermark ? { until: order.watermark } : {}),
        });
        if (records[0]) order.watermark = records[0].signature;
        const fill = records
          .reverse()
          .map((record) => readSolanaFill(order, record))
          .find((candidate) => candidate !== undefined);
        if (fill) {
          found.push(fill);
          watched.delete(order.orderId);
        } else if (chain.unixTimestamp() > order.fillDeadline) {
          // Every later transaction lands after the deadline, so no fill of this order can count.
          watched.delete(order.orderId);
        }
      }
      return found;
    },
  };
}

/**
 * The fill a landed transaction makes for `order`, or undefined: exactly createIdempotent of the
 * recipient's token account, transferChecked of the output's mint and amount into it, and Memo
 * `fill:<orderId>:<solver>`, landed without error by the fill deadline.
 */
export function readSolanaFill(
  order: SolanaFillTarget,
  record: SolanaTransactionRecord,
): SolanaFill | undefined {
  const tx = record.transaction;
  if (record.err !== null || tx.instructions.length !== 3) return undefined;
  const [create, transfer, memo] = tx.instructions as [
    (typeof tx.instructions)[0],
    (typeof tx.instructions)[0],
    (typeof tx.instructions)[0],
  ];
  const key = (index: number | undefined) => (index === undefined ? undefined : tx.accountKeys[index]);
  if (
    key(create.programIdIndex) !== associatedTokenProgramAddress ||
    key(transfer.programIdIndex) !== TOKEN_PROGRAM_ADDRESS ||
    key(memo.programIdIndex) !== memoProgramAddress
  )
    return undefined;
  if (
    create.data.length !== 1 ||
    create.data[0] !== createIdempotentDiscriminator ||
    key(create.accounts[1]) !== order.tokenAccount ||
    key(create.accounts[2]) !== order.recipient ||
    key(create.accounts[3]) !== order.mint
  )
    return undefined;
  if (
    transfer.data.length !== 10 ||
    transfer.data[0] !== transferCheckedDiscriminator ||
    transfer.accounts.length !== 4 ||
    key(transfer.accounts[1]) !== order.mint ||
    key(transfer.accounts[2]) !== order.tokenAccount
  )
    return undefined;
  const view = new DataView(transfer.data.buffer, transfer.data.byteOffset, transfer.data.byteLength);
  if (view.getBigUint64(1, true) !== order.output.amount) return undefined;
  const match = /^fill:(0x[0-9a-f]{64}):(0x[0-9a-f]{40})$/.exec(new TextDecoder().decode(memo.data));
  if (!match || match[1] !== order.orderId.toLowerCase()) return undefined;
  if (record.blockTime > order.fillDeadline) return undefined;
  const solver = addressToBytes32(match[2] as Hex);
  return {
    orderId: order.orderId,
    originChainId: order.originChainId,
    solver,
    fillTimestamp: record.blockTime,
    signature: record.signature,
    attestation: {
      remoteChainId: order.output.chainId,
      remoteOracle: order.output.oracle,
      application: order.output.settler,
      payloadHash: fillDescriptionHash({
        solver,
        orderId: order.orderId,
        timestamp: record.blockTime,
        output: order.output,
      }),
    },
  };
}
