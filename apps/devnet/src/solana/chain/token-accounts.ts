import { type Address, address, type MaybeEncodedAccount } from "@solana/kit";
import { TOKEN_PROGRAM_ADDRESS } from "@solana-program/token";
import type { LiteSVM } from "litesvm";
import { base58 } from "./base58.js";
import type { SolanaTokenBalance, SolanaUiTokenAmount } from "./solana-transaction-record.js";

const token2022ProgramAddress = address("TokenzQdBNbLqP5VEhdkAS6EPFLC1PGnBqCXEpPxuEb");

/** The token amount in UI units, the way a node formats it (decimal string without trailing zeros). */
export function uiTokenAmount(amount: bigint, decimals: number): SolanaUiTokenAmount {
  const scale = 10n ** BigInt(decimals);
  const fraction = (amount % scale).toString().padStart(decimals, "0").replace(/0+$/, "");
  const uiAmountString = fraction ? `${amount / scale}.${fraction}` : `${amount / scale}`;
  return { amount: amount.toString(), decimals, uiAmount: Number(uiAmountString), uiAmountString };
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

/** A mint's decimals (0 for an account that is not a mint). */
export function mintDecimals(svm: LiteSVM, mint: string): number {
  const account = svm.getAccount(address(mint));
  if (!account.exists || account.data.length < 82) return 0;
  return new DataView(account.data.buffer, account.data.byteOffset, account.data.byteLength).getUint8(44);
}

export function tokenAmount(svm: LiteSVM, account: Address): SolanaUiTokenAmount | undefined {
  const parsed = readTokenAccount(svm.getAccount(account));
  return parsed ? uiTokenAmount(parsed.amount, mintDecimals(svm, parsed.mint)) : undefined;
}

/** Lamports and token balances of a transaction's accounts, as its meta's pre and post fields list them. */
export function balanceSnapshot(
  svm: LiteSVM,
  keys: string[],
): { balances: bigint[]; tokenBalances: SolanaTokenBalance[] } {
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
      uiTokenAmount: uiTokenAmount(parsed.amount, mintDecimals(svm, parsed.mint)),
    });
  });
  return { balances, tokenBalances };
}
