import { address } from "@solana/kit";
import { findAssociatedTokenPda, TOKEN_PROGRAM_ADDRESS } from "@solana-program/token";
import type { SolanaBlockhashChecker } from "../../../chains/solana/solana-blockhash-checker.js";
import type { SolanaToEvmQuoteRoute } from "../../../quotes/solana-quote-route.js";
import type { HeldOutcome, SourceVetting, SourceVettingOf } from "../source-vetting.js";
import { type SolanaVetOutcome, vetSolanaOifQuote } from "./vet-solana-oif-quote.js";

/**
 * The chain's word on a vetted Solana answer's blockhash: invalid or unanswered, it is discarded;
 * unanswered, it is marked so that a call left with nothing else counts as unavailable.
 */
async function blockhashHeld(
  blockhashes: SolanaBlockhashChecker | undefined,
  route: SolanaToEvmQuoteRoute,
  outcome: SolanaVetOutcome,
): Promise<HeldOutcome> {
  if (!outcome.ok || outcome.quote.lane !== "oif-escrow-nonevm") return outcome;
  const { recentBlockhash } = outcome.quote.solana;
  const validity = blockhashes
    ? await blockhashes.check(route.source.chain.chainDomain, recentBlockhash)
    : ({ kind: "unavailable", cause: "the hub reads no Solana chain" } as const);
  if (validity.kind === "valid") return outcome;
  return {
    ok: false,
    reason: "blockhash",
    detail:
      validity.kind === "invalid"
        ? `recent blockhash ${recentBlockhash} is not valid on the chain`
        : `recent blockhash ${recentBlockhash} could not be checked: ${validity.cause}`,
    solverId: outcome.quote.solverId,
    ...(validity.kind === "unavailable" ? { chainUnavailable: true as const } : {}),
  };
}

async function deriveVetting(
  blockhashes: SolanaBlockhashChecker | undefined,
  route: SolanaToEvmQuoteRoute,
): Promise<SourceVetting> {
  const [sourceTokenAccount] = await findAssociatedTokenPda({
    owner: address(route.user),
    mint: address(route.source.mint),
    tokenProgram: TOKEN_PROGRAM_ADDRESS,
  });
  return {
    vet: (raw, context, provider) =>
      blockhashHeld(
        blockhashes,
        route,
        vetSolanaOifQuote(raw, context, { feePayers: provider.solanaFeePayers, sourceTokenAccount }),
      ),
  };
}

/**
 * A Solana source's vetting (vetSolanaOifQuote): the sender's token account the deposit must come from
 * (derived once for the round), each provider's declared fee payers, and the blockhash asked of the chain (absent a
 * checker, every Solana answer is discarded).
 */
export function solanaSourceVetting(blockhashes: SolanaBlockhashChecker | undefined): SourceVettingOf {
  return (route) => (route.direction === "solana-to-evm" ? deriveVetting(blockhashes, route) : undefined);
}
