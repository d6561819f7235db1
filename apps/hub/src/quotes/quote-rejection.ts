/** Why an upstream quote was discarded; the label of hub_quote_vetting_rejections_total. */
export type QuoteRejectionReason =
  | "malformed"
  | "unknown-lane"
  | "lane-not-asked"
  | "types"
  | "domain"
  | "spender"
  | "user"
  | "input"
  | "amount"
  | "output"
  | "recipient"
  | "oracle"
  | "settler"
  | "deadlines"
  | "deadline-too-far"
  | "expired"
  | "nonce"
  | "metadata"
  | "preview"
  | "typed-data-hash"
  | "kind"
  | "chain-id"
  | "approval"
  | "deposit"
  | "fee-payer"
  | "message"
  | "instruction"
  | "vault"
  | "digest"
  | "order-id"
  | "output-hash"
  | "blockhash";

/** Thrown inside vetting at the first failed check; vetQuote turns it into a discarded answer. */
export class QuoteRejection extends Error {
  constructor(
    readonly reason: QuoteRejectionReason,
    readonly detail: string,
  ) {
    super(`${reason}: ${detail}`);
    this.name = "QuoteRejection";
  }
}
