import { isSome, type MaybeEncodedAccount } from "@solana/kit";
import { AccountState, getMintDecoder, getTokenDecoder, TOKEN_PROGRAM_ADDRESS } from "@solana-program/token";
import { uiTokenAmount } from "./solana-chain.js";

const mintSize = 82;
const tokenAccountSize = 165;
const accountStates = {
  [AccountState.Uninitialized]: "uninitialized",
  [AccountState.Initialized]: "initialized",
  [AccountState.Frozen]: "frozen",
};

/**
 * An SPL Token mint or token account in the `jsonParsed` form a node gives it (`{ program: "spl-token",
 * parsed: { type, info }, space }`); undefined for any other account, which a node then shows in base64.
 */
export function parseTokenAccountData(
  account: MaybeEncodedAccount,
  decimalsOf: (mint: string) => number,
): object | undefined {
  if (!account.exists || account.programAddress !== TOKEN_PROGRAM_ADDRESS) return undefined;
  const space = account.data.length;
  if (space === mintSize) {
    const mint = getMintDecoder().decode(account.data);
    return {
      program: "spl-token",
      parsed: {
        type: "mint",
        info: {
          decimals: mint.decimals,
          freezeAuthority: isSome(mint.freezeAuthority) ? mint.freezeAuthority.value : null,
          isInitialized: mint.isInitialized,
          mintAuthority: isSome(mint.mintAuthority) ? mint.mintAuthority.value : null,
          supply: mint.supply.toString(),
        },
      },
      space,
    };
  }
  if (space !== tokenAccountSize) return undefined;
  const token = getTokenDecoder().decode(account.data);
  if (token.state === AccountState.Uninitialized) return undefined;
  const decimals = decimalsOf(token.mint);
  return {
    program: "spl-token",
    parsed: {
      type: "account",
      info: {
        isNative: isSome(token.isNative),
        mint: token.mint,
        owner: token.owner,
        state: accountStates[token.state],
        tokenAmount: uiTokenAmount(token.amount, decimals),
        ...(isSome(token.delegate)
          ? {
              delegate: token.delegate.value,
              delegatedAmount: uiTokenAmount(token.delegatedAmount, decimals),
            }
          : {}),
        ...(isSome(token.closeAuthority) ? { closeAuthority: token.closeAuthority.value } : {}),
        ...(isSome(token.isNative)
          ? { rentExemptReserve: uiTokenAmount(token.isNative.value, decimals) }
          : {}),
      },
    },
    space,
  };
}
