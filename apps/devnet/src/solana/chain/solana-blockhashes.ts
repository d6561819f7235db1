import { base58 } from "./base58.js";
import { sha256 } from "./sha256.js";
import type { SolanaChainState } from "./solana-chain-state.js";
import { currentSlot } from "./solana-slots.js";

const blockhashValiditySlots = 150;

function blockhashOf(state: SolanaChainState, atSlot: number): string {
  const slotBytes = new Uint8Array(8);
  new DataView(slotBytes.buffer).setBigUint64(0, BigInt(atSlot), true);
  const blockhash = base58.decode(sha256(state.genesisHashBytes, slotBytes));
  state.issuedBlockhashes.set(blockhash, atSlot);
  return blockhash;
}

export function latestBlockhash(state: SolanaChainState) {
  const current = currentSlot(state);
  return {
    blockhash: blockhashOf(state, current),
    lastValidBlockHeight: BigInt(current + blockhashValiditySlots),
  };
}

export function isBlockhashValid(state: SolanaChainState, blockhash: string): boolean {
  const issuedAt = state.issuedBlockhashes.get(blockhash);
  return issuedAt !== undefined && currentSlot(state) <= issuedAt + blockhashValiditySlots;
}

export function forgetExpiredBlockhashes(state: SolanaChainState): void {
  for (const [blockhash, issuedAt] of state.issuedBlockhashes) {
    if (issuedAt + blockhashValiditySlots >= state.slot) break;
    state.issuedBlockhashes.delete(blockhash);
  }
}
