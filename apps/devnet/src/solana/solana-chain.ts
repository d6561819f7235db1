import { createHash } from "node:crypto";
import type { Clock } from "@hub/clock";
import {
  type Address,
  address,
  getBase58Decoder,
  getBase58Encoder,
  getTransactionDecoder,
  type MaybeEncodedAccount,
} from "@solana/kit";
import { TOKEN_PROGRAM_ADDRESS } from "@solana-program/token";
import { type FailedTransactionMetadata, LiteSVM, type TransactionMetadata } from "litesvm";
import { verifySolanaSignature } from "./solana-keypair.js";
import { invalidParams, SolanaRpcError, solanaRpcErrorCodes } from "./solana-rpc-error.js";
import {
  solanaTransactionError,
  type SolanaTransactionError,
  describeTransactionError,
} from "./solana-transaction-error.js";
import { solanaTransactionFee } from "./solana-transaction-fee.js";
import { parseWireTransaction, type WireTransaction } from "./solana-wire-transaction.js";

const token2022ProgramAddress = address("TokenzQdBNbLqP5VEhdkAS6EPFLC1PGnBqCXEpPxuEb");
export const memoProgramAddress = address("MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr");
const memoV1ProgramAddress = "Memo1UhkJRfHyvLMcVucJwxXeuD728EqVDDwQDxFMNo";

/** A token balance of one account as getTransaction's meta lists it. */
export interface SolanaTokenBalance {
  accountIndex: number;
  mint: string;
  owner: string;
  programId: string;
  uiTokenAmount: SolanaUiTokenAmount;
}

export interface SolanaUiTokenAmount {
  amount: string;
  decimals: number;
  uiAmount: number | null;
  uiAmountString: string;
}

/** A transaction that landed in a slot (successful or failed), with what getTransaction reports. */
export interface SolanaTransactionRecord {
  signature: string;
  slot: number;
  blockTime: number;
  transaction: WireTransaction;
  err: SolanaTransactionError | null;
  fee: bigint;
  preBalances: bigint[];
  postBalances: bigint[];
  preTokenBalances: SolanaTokenBalance[];
  postTokenBalances: SolanaTokenBalance[];
  logMessages: string[];
  innerInstructions: {
    index: number;
    instructions: { programIdIndex: number; accounts: number[]; data: Uint8Array; stackHeight: number }[];
  }[];
  computeUnitsConsumed: bigint;
  /** Memo instructions as getSignaturesForAddress shows them: "[len] text", joined by "; "; null without one. */
  memo: string | null;
}

export interface SolanaSimulation {
  err: SolanaTransactionError | null;
  logs: string[];
  unitsConsumed: bigint;
  replacementBlockhash?: { blockhash: string; lastValidBlockHeight: bigint };
}

export interface SolanaChainConfig {
  /** Time of the chain; the chain adds its own offset (increaseTime). */
  clock: Clock;
  /** Length of a slot; 400 ms like Solana's. */
  slotMs?: number;
  /** Text the genesis hash is derived from: the same text gives the same chain domain on every start. */
  genesisLabel: string;
}

export interface SolanaChain {
  /** base58 genesis hash, fixed by the genesis label. */
  genesisHash: string;
  /** `solana:<first 32 characters of the genesis hash>`. */
  chainDomain: string;
  slot(): number;
  /** No slot is ever skipped, so the block height equals the slot. */
  blockHeight(): number;
  /** The chain's clock in unix seconds (what the Clock sysvar says). */
  unixTimestamp(): number;
  increaseTime(seconds: number): void;
  latestBlockhash(): { blockhash: string; lastValidBlockHeight: bigint };
  isBlockhashValid(blockhash: string): boolean;
  /** Sends a serialized transaction like a node's sendTransaction; answers its signature. */
  send(bytes: Uint8Array, options?: { skipPreflight?: boolean }): string;
  simulate(
    bytes: Uint8Array,
    options?: { sigVerify?: boolean; replaceRecentBlockhash?: boolean },
  ): SolanaSimulation;
  transaction(signature: string): SolanaTransactionRecord | undefined;
  /** Newest first, like getSignaturesForAddress, from `before` (excluded) back to `until` (excluded). */
  signaturesForAddress(
    account: string,
    options?: { before?: string; until?: string; limit?: number },
  ): SolanaTransactionRecord[];
  account(account: Address): MaybeEncodedAccount;
  minimumBalanceForRentExemption(dataLength: number): bigint;
  tokenAmount(account: Address): SolanaUiTokenAmount | undefined;
  /** A mint's decimals (0 for an account that is not a mint). */
  tokenDecimals(mint: string): number;
  /** Writes genesis state (accounts present before the first slot). */
  setGenesisAccount(account: {
    address: Address;
    lamports: bigint;
    owner: Address;
    data: Uint8Array;
    executable?: boolean;
  }): void;
}

const blockhashValiditySlots = 150;
const base58 = getBase58Decoder();
const base58Bytes = getBase58Encoder();
const transactionDecoder = getTransactionDecoder();

function sha256(...parts: (Uint8Array | string)[]): Uint8Array {
  const hash = createHash("sha256");
  for (const part of parts) hash.update(part);
  return hash.digest();
}

/** A simulation as simulateTransaction's `value` (and a failed preflight's `data`) reports it. */
export function simulationResult(simulation: SolanaSimulation) {
  return {
    err: simulation.err,
    logs: simulation.logs,
    accounts: null,
    unitsConsumed: simulation.unitsConsumed,
    returnData: null,
    innerInstructions: null,
    ...(simulation.replacementBlockhash ? { replacementBlockhash: simulation.replacementBlockhash } : {}),
  };
}

/** The token amount in UI units, the way a node formats it (decimal string without trailing zeros). */
export function uiTokenAmount(amount: bigint, decimals: number): SolanaUiTokenAmount {
  const scale = 10n ** BigInt(decimals);
  const fraction = (amount % scale).toString().padStart(decimals, "0").replace(/0+$/, "");
  const uiAmountString = fraction ? `${amount / scale}.${fraction}` : `${amount / scale}`;
  return { amount: amount.toString(), decimals, uiAmount: Number(uiAmountString), uiAmountString };
}

/** A Solana stand-in: litesvm in process, with slots, blockhashes and a history kept the way a node keeps them. */
export function createSolanaChain(config: SolanaChainConfig): SolanaChain {
  const slotMs = config.slotMs ?? 400;
  const genesisHashBytes = sha256(`intent-hub solana genesis: ${config.genesisLabel}`);
  const genesisHash = base58.decode(genesisHashBytes);
  // litesvm only knows its one latest blockhash; the stand-in keeps the window of 150 slots itself.
  const svm = new LiteSVM().withBlockhashCheck(false).withTransactionHistory(0n);
  let offsetMs = 0;
  const now = () => config.clock.now() + offsetMs;
  let slot = 0;
  let slotStartedMs = now();
  const issuedBlockhashes = new Map<string, number>();
  const history = new Map<string, SolanaTransactionRecord>();
  const byAddress = new Map<string, SolanaTransactionRecord[]>();

  function tick(): number {
    const elapsed = Math.floor((now() - slotStartedMs) / slotMs);
    if (elapsed > 0) {
      slot += elapsed;
      slotStartedMs += elapsed * slotMs;
    }
    return slot;
  }

  function blockhashOf(atSlot: number): string {
    const slotBytes = new Uint8Array(8);
    new DataView(slotBytes.buffer).setBigUint64(0, BigInt(atSlot), true);
    const blockhash = base58.decode(sha256(genesisHashBytes, slotBytes));
    issuedBlockhashes.set(blockhash, atSlot);
    return blockhash;
  }

  function isBlockhashValid(blockhash: string): boolean {
    const issuedAt = issuedBlockhashes.get(blockhash);
    return issuedAt !== undefined && tick() <= issuedAt + blockhashValiditySlots;
  }

  function forgetExpiredBlockhashes(): void {
    for (const [blockhash, issuedAt] of issuedBlockhashes) {
      if (issuedAt + blockhashValiditySlots >= slot) break;
      issuedBlockhashes.delete(blockhash);
    }
  }

  function setClockSysvar(): void {
    const clock = svm.getClock();
    clock.slot = BigInt(slot);
    clock.unixTimestamp = BigInt(Math.floor(now() / 1000));
    svm.setClock(clock);
  }

  function signaturesVerify(tx: WireTransaction): boolean {
    return tx.signatures.every((signature, i) =>
      verifySolanaSignature(tx.accountKeys[i]!, tx.messageBytes, signature),
    );
  }

  /** An initialized SPL Token (or Token-2022) account's mint, owner and amount. */
  function readTokenAccount(
    account: MaybeEncodedAccount,
  ): { mint: string; owner: string; amount: bigint; programId: string } | undefined {
    if (!account.exists) return undefined;
    const { data, programAddress } = account;
    if (programAddress !== TOKEN_PROGRAM_ADDRESS && programAddress !== token2022ProgramAddress)
      return undefined;
    if (data.length < 165 || data[108] === 0) return undefined;
    const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
    return {
      mint: base58.decode(data.subarray(0, 32)),
      owner: base58.decode(data.subarray(32, 64)),
      amount: view.getBigUint64(64, true),
      programId: programAddress,
    };
  }

  function mintDecimals(mint: string): number {
    const account = svm.getAccount(address(mint));
    return account.exists && account.data.length >= 82 ? account.data[44]! : 0;
  }

  function tokenAmount(account: Address): SolanaUiTokenAmount | undefined {
    const parsed = readTokenAccount(svm.getAccount(account));
    return parsed ? uiTokenAmount(parsed.amount, mintDecimals(parsed.mint)) : undefined;
  }

  function snapshot(keys: string[]): { balances: bigint[]; tokenBalances: SolanaTokenBalance[] } {
    const balances: bigint[] = [];
    const tokenBalances: SolanaTokenBalance[] = [];
    keys.forEach((key, accountIndex) => {
      const account = svm.getAccount(address(key));
      balances.push(account.exists ? account.lamports : 0n);
      const parsed = readTokenAccount(account);
      if (!parsed) return;
      tokenBalances.push({
        accountIndex,
        mint: parsed.mint,
        owner: parsed.owner,
        programId: parsed.programId,
        uiTokenAmount: uiTokenAmount(parsed.amount, mintDecimals(parsed.mint)),
      });
    });
    return { balances, tokenBalances };
  }

  function memoOf(tx: WireTransaction): string | null {
    const memos = tx.instructions
      .filter((instruction) => {
        const program = tx.accountKeys[instruction.programIdIndex];
        return program === memoProgramAddress || program === memoV1ProgramAddress;
      })
      .map((instruction) => `[${instruction.data.length}] ${new TextDecoder().decode(instruction.data)}`);
    return memos.length > 0 ? memos.join("; ") : null;
  }

  function toKitTransaction(tx: WireTransaction) {
    return transactionDecoder.decode(tx.bytes);
  }

  function requireSupported(tx: WireTransaction): void {
    if (tx.addressTableLookups.length > 0)
      throw invalidParams("invalid transaction: this stand-in loads no address lookup tables");
  }

  /** Runs a transaction in the next slot; records it if it landed (a failed one lands when its fee was charged). */
  function execute(tx: WireTransaction): SolanaTransactionRecord | undefined {
    tick();
    slot += 1;
    slotStartedMs = now();
    setClockSysvar();
    const blockTime = Math.floor(now() / 1000);
    const before = snapshot(tx.accountKeys);
    const result: TransactionMetadata | FailedTransactionMetadata = svm.sendTransaction(toKitTransaction(tx));
    const failed = "err" in result;
    const meta = failed ? result.meta() : result;
    const after = snapshot(tx.accountKeys);
    // A transaction refused before execution charges nothing and never lands.
    if (failed && before.balances[0] === after.balances[0]) return undefined;
    const signature = base58.decode(tx.signatures[0]!);
    const record: SolanaTransactionRecord = {
      signature,
      slot,
      blockTime,
      transaction: tx,
      err: failed ? solanaTransactionError(result.err()) : null,
      fee: solanaTransactionFee(tx),
      preBalances: before.balances,
      postBalances: after.balances,
      preTokenBalances: before.tokenBalances,
      postTokenBalances: after.tokenBalances,
      logMessages: meta.logs(),
      innerInstructions: meta
        .innerInstructions()
        .map((inner, index) => ({
          index,
          instructions: inner.map((item) => ({
            programIdIndex: item.instruction().programIdIndex(),
            accounts: Array.from(item.instruction().accounts()),
            data: item.instruction().data(),
            stackHeight: item.stackHeight(),
          })),
        }))
        .filter((entry) => entry.instructions.length > 0),
      computeUnitsConsumed: meta.computeUnitsConsumed(),
      memo: memoOf(tx),
    };
    history.set(signature, record);
    for (const key of tx.accountKeys) {
      const list = byAddress.get(key);
      if (list) list.push(record);
      else byAddress.set(key, [record]);
    }
    forgetExpiredBlockhashes();
    return record;
  }

  function simulate(
    tx: WireTransaction,
    replaceRecentBlockhash: boolean,
    sigVerify: boolean,
  ): SolanaSimulation {
    requireSupported(tx);
    tick();
    setClockSysvar();
    const replacement = replaceRecentBlockhash ? latestBlockhash() : undefined;
    if (!replacement && !isBlockhashValid(tx.recentBlockhash))
      return { err: "BlockhashNotFound", logs: [], unitsConsumed: 0n };
    if (history.has(base58.decode(tx.signatures[0]!)))
      return { err: "AlreadyProcessed", logs: [], unitsConsumed: 0n };
    svm.withSigverify(sigVerify);
    try {
      const result = svm.simulateTransaction(toKitTransaction(tx));
      const meta = result.meta();
      return {
        err: "err" in result ? solanaTransactionError(result.err()) : null,
        logs: meta.logs(),
        unitsConsumed: meta.computeUnitsConsumed(),
        ...(replacement ? { replacementBlockhash: replacement } : {}),
      };
    } finally {
      svm.withSigverify(true);
    }
  }

  function latestBlockhash() {
    const current = tick();
    return {
      blockhash: blockhashOf(current),
      lastValidBlockHeight: BigInt(current + blockhashValiditySlots),
    };
  }

  return {
    genesisHash,
    chainDomain: `solana:${genesisHash.slice(0, 32)}`,
    slot: tick,
    blockHeight: tick,
    unixTimestamp: () => Math.floor(now() / 1000),
    increaseTime(seconds) {
      if (!Number.isInteger(seconds) || seconds < 0)
        throw new RangeError(`cannot move the chain's time by ${seconds} s`);
      offsetMs += seconds * 1000;
    },
    latestBlockhash,
    isBlockhashValid,
    send(bytes, options = {}) {
      const tx = parseWireTransaction(bytes);
      requireSupported(tx);
      const signature = base58.decode(tx.signatures[0]!);
      if (!options.skipPreflight) {
        if (!signaturesVerify(tx))
          throw new SolanaRpcError(
            solanaRpcErrorCodes.transactionSignatureVerificationFailure,
            "Transaction signature verification failure",
          );
        const simulation = simulate(tx, false, true);
        if (simulation.err !== null)
          throw new SolanaRpcError(
            solanaRpcErrorCodes.sendTransactionPreflightFailure,
            `Transaction simulation failed: ${describeTransactionError(simulation.err)}`,
            simulationResult(simulation),
          );
      }
      // Like a node that forwards to the leader: a transaction that cannot land is dropped, and its
      // signature is answered all the same (it then never gets a status).
      if (isBlockhashValid(tx.recentBlockhash) && !history.has(signature) && signaturesVerify(tx))
        execute(tx);
      return signature;
    },
    simulate(bytes, options = {}) {
      const tx = parseWireTransaction(bytes);
      if (options.sigVerify && options.replaceRecentBlockhash)
        throw invalidParams("sigVerify may not be used with replaceRecentBlockhash");
      if (options.sigVerify && !signaturesVerify(tx))
        throw new SolanaRpcError(
          solanaRpcErrorCodes.transactionSignatureVerificationFailure,
          "Transaction signature verification failure",
        );
      return simulate(tx, options.replaceRecentBlockhash ?? false, options.sigVerify ?? false);
    },
    transaction: (signature) => history.get(signature),
    signaturesForAddress(account, options = {}) {
      const list = byAddress.get(account) ?? [];
      const limit = options.limit ?? 1000;
      const found: SolanaTransactionRecord[] = [];
      let started = options.before === undefined;
      for (let i = list.length - 1; i >= 0 && found.length < limit; i--) {
        const record = list[i]!;
        if (!started) {
          started = record.signature === options.before;
          continue;
        }
        if (record.signature === options.until) break;
        found.push(record);
      }
      return found;
    },
    account: (account) => svm.getAccount(account),
    minimumBalanceForRentExemption: (dataLength) => svm.minimumBalanceForRentExemption(BigInt(dataLength)),
    tokenAmount,
    tokenDecimals: mintDecimals,
    setGenesisAccount(account) {
      svm.setAccount({
        address: account.address,
        lamports: account.lamports as never,
        programAddress: account.owner,
        data: account.data,
        executable: account.executable ?? false,
        space: BigInt(account.data.length),
      });
    },
  };
}

export function decodeBase58Bytes(text: string): Uint8Array {
  return Uint8Array.from(base58Bytes.encode(text));
}
