import type { Clock } from "@hub/clock";
import type { Address, MaybeEncodedAccount } from "@solana/kit";
import { base58 } from "./chain/base58.js";
import { sendTransaction } from "./chain/send-transaction.js";
import { type SolanaSimulation, simulateTransaction } from "./chain/simulate-transaction.js";
import { isBlockhashValid, latestBlockhash } from "./chain/solana-blockhashes.js";
import { createSolanaChainState } from "./chain/solana-chain-state.js";
import { chainNow, currentSlot, increaseChainTime } from "./chain/solana-slots.js";
import type { SolanaTransactionRecord, SolanaUiTokenAmount } from "./chain/solana-transaction-record.js";
import { mintDecimals, tokenAmount } from "./chain/token-accounts.js";
import { signaturesForAddress } from "./chain/transaction-history.js";

export { decodeBase58Bytes } from "./chain/base58.js";
export { type SolanaSimulation, simulationResult } from "./chain/simulate-transaction.js";
export type {
  SolanaTokenBalance,
  SolanaTransactionRecord,
  SolanaUiTokenAmount,
} from "./chain/solana-transaction-record.js";
export { uiTokenAmount } from "./chain/token-accounts.js";
export { memoProgramAddress } from "./chain/transaction-memo.js";

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

/** A Solana stand-in: litesvm in process, with slots, blockhashes and a history kept the way a node keeps them. */
export function createSolanaChain(config: SolanaChainConfig): SolanaChain {
  const state = createSolanaChainState(config);
  const { svm } = state;
  const genesisHash = base58.decode(state.genesisHashBytes);
  const slot = () => currentSlot(state);
  return {
    genesisHash,
    chainDomain: `solana:${genesisHash.slice(0, 32)}`,
    slot,
    blockHeight: slot,
    unixTimestamp: () => Math.floor(chainNow(state) / 1000),
    increaseTime: (seconds) => increaseChainTime(state, seconds),
    latestBlockhash: () => latestBlockhash(state),
    isBlockhashValid: (blockhash) => isBlockhashValid(state, blockhash),
    send: (bytes, options = {}) => sendTransaction(state, bytes, options),
    simulate: (bytes, options = {}) => simulateTransaction(state, bytes, options),
    transaction: (signature) => state.history.get(signature),
    signaturesForAddress: (account, options = {}) => signaturesForAddress(state, account, options),
    account: (account) => svm.getAccount(account),
    minimumBalanceForRentExemption: (dataLength) => svm.minimumBalanceForRentExemption(BigInt(dataLength)),
    tokenAmount: (account) => tokenAmount(svm, account),
    tokenDecimals: (mint) => mintDecimals(svm, mint),
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
