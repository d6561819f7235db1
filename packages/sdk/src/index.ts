export {
  createHubClient,
  type CallOptions,
  type HubClient,
  type HubClientOptions,
  type ListOrdersOptions,
} from "./client.js";
export {
  blockOf,
  errorBlocks,
  HubError,
  type HubErrorFields,
  isUserRejection,
  type SdkErrorCode,
  type SentTransaction,
  WalletRejectedError,
} from "./errors.js";
export { hubOrderIdOf } from "./hub-order-id.js";
export {
  SOLANA_ENVELOPE_BYTES,
  type SolanaSignPayload,
  signSolanaPayload,
  solanaMessageDigest,
} from "./solana-envelope.js";
export { isSolanaWallet, type SolanaWallet, type Wallet } from "./solana-wallet.js";
export type { SubmitOptions, SubmitStep, SubmittedOrder } from "./submit.js";
export { DEFAULT_TRACK, type TrackEvent, type TrackOptions } from "./track.js";
export { DEFAULT_RETRY, DEFAULT_TIMEOUTS } from "./transport.js";
export type * from "./types.js";
export type { EvmTransaction, EvmWallet, TypedData } from "./wallet.js";
