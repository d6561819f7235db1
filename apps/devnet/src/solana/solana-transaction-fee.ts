import type { WireTransaction } from "./solana-wire-transaction.js";

const lamportsPerSignature = 5000n;
const computeBudgetProgram = "ComputeBudget111111111111111111111111111111";
// Programs built into the runtime: an instruction of theirs reserves 3,000 compute units by default,
// any other 200,000 (the runtime's rule, as litesvm applies it).
const builtinPrograms = new Set([
  "11111111111111111111111111111111",
  computeBudgetProgram,
  "Vote111111111111111111111111111111111111111",
  "Stake11111111111111111111111111111111111111",
  "Config1111111111111111111111111111111111111",
  "AddressLookupTab1e1111111111111111111111111",
  "BPFLoader1111111111111111111111111111111111",
  "BPFLoader2111111111111111111111111111111111",
  "BPFLoaderUpgradeab1e11111111111111111111111",
  "LoaderV411111111111111111111111111111111111",
]);
const maxComputeUnitLimit = 1_400_000n;

/**
 * The fee the runtime charges the fee payer: 5,000 lamports per signature plus the priority fee,
 * ceil(compute-unit price in micro-lamports × compute-unit limit / 1,000,000).
 */
export function solanaTransactionFee(tx: WireTransaction): bigint {
  let price = 0n;
  let limit: bigint | undefined;
  let defaultLimit = 0n;
  for (const instruction of tx.instructions) {
    const program = tx.accountKeys[instruction.programIdIndex];
    defaultLimit += program !== undefined && builtinPrograms.has(program) ? 3_000n : 200_000n;
    if (program !== computeBudgetProgram) continue;
    const view = new DataView(
      instruction.data.buffer,
      instruction.data.byteOffset,
      instruction.data.byteLength,
    );
    if (instruction.data[0] === 2 && instruction.data.length === 5) limit = BigInt(view.getUint32(1, true));
    if (instruction.data[0] === 3 && instruction.data.length === 9) price = view.getBigUint64(1, true);
  }
  const units = (limit ?? defaultLimit) < maxComputeUnitLimit ? (limit ?? defaultLimit) : maxComputeUnitLimit;
  return lamportsPerSignature * BigInt(tx.signatures.length) + (price * units + 999_999n) / 1_000_000n;
}
