import { z } from "zod";
import { executionTxSchema } from "./execution-tx.js";
import { laneSchema } from "./lane.js";
import { providerIdSchema } from "./prepare-quote-request.js";
import { swapTypeSchema } from "./quote-request.js";
import { signPayloadSchema } from "./sign-payload.js";
import {
  accountSchema,
  assetKeySchema,
  baseUnitsSchema,
  hex32Schema,
  timestampSchema,
} from "./wire-scalars.js";

/** One side of a quote's terms: an asset and an amount in its base units. */
export const assetAmountSchema = z
  .object({ asset: assetKeySchema, amount: baseUnitsSchema })
  .meta({ id: "AssetAmount" });

/** What the signature or the transactions commit to, and its hash (the artifact hash of POST /order). */
export const disclosureSchema = z
  .object({
    signablePayload: z
      .looseObject({ kind: laneSchema })
      .describe(
        "What the user commits to: `kind` names the lane; the other members are the lane's payload (the signPayload or the executionTx, and the quote's terms).",
      ),
    signableHash: hex32Schema.describe(
      "`0x` + SHA-256 of the canonical JSON (keys sorted, no whitespace) of signablePayload; send it as artifactHash on POST /order.",
    ),
  })
  .meta({ id: "Disclosure" });

/** Token-in orders: what enters the swap and its ceiling. */
export const swapInputSchema = z
  .object({
    amountIn: baseUnitsSchema.describe(
      "The swap's nominal input, base units of the source token: the requested amount on exact-input; equal to amountMax on exact-output.",
    ),
    amountMax: baseUnitsSchema.describe(
      "The real cost; show this one. What the user approves and the user proxy pulls and swaps, all of it (never above amountIn); equals input.amount.",
    ),
  })
  .meta({
    id: "SwapInput",
    description:
      "Token-in orders only (oif-swap-token). amountMax is the real cost: the approval's amount and the swapAndOpenV2 argument. The swap yields at least the order's input of the declared token; any surplus goes to the order's user.",
  });

/** The fields a winner and a preview offer share: who, which lane, the terms. */
export const quoteTermsFields = {
  provider: providerIdSchema.describe("The provider that quoted."),
  lane: laneSchema,
  executionClass: z
    .string()
    .describe("Execution class of the winner; `INFINITY_SOLVER` is a same-chain solver-swap."),
  input: assetAmountSchema.describe("What the user pays (the declared source token or coin)."),
  output: assetAmountSchema.describe("What the recipient is quoted to receive."),
  swapType: swapTypeSchema,
};

/** The fields of a disclosed winner. */
export const quoteWinnerFields = {
  quoteRequestId: z.string().describe("The round's id; send it on POST /order/openfor."),
  quoteId: z.string().describe("The winner's id. One order per quote."),
  expiresAt: timestampSchema.describe(
    "About 30 s after issue. A first registration on POST /order at or after it is EIN0005; a replay of prepare never extends it.",
  ),
  ...quoteTermsFields,
  recipient: accountSchema,
  sourceAccount: accountSchema.optional(),
  onchainOrderId: hex32Schema
    .optional()
    .describe(
      "Disclosed where it is known at quote time; absent on the Permit2 lane (it appears at submission).",
    ),
  disclosure: disclosureSchema,
  signPayload: signPayloadSchema
    .optional()
    .describe("Signature lanes only. At most one of signPayload and executionTx is present."),
  executionTx: executionTxSchema.optional(),
  signIntent: z
    .string()
    .optional()
    .describe(
      "Open flow only: personal_sign it verbatim for POST /order. Absent when the hub could not build it: then re-quote before sending anything.",
    ),
  swapInput: swapInputSchema.optional(),
};

/** The spec: at most one of signPayload and executionTx is present. */
function atMostOneOfSignPayloadAndExecutionTx(winner: {
  signPayload?: unknown;
  executionTx?: unknown;
}): boolean {
  return winner.signPayload === undefined || winner.executionTx === undefined;
}

const AT_MOST_ONE = {
  message: "at most one of signPayload and executionTx is present",
  path: ["executionTx"],
};

/** POST /quote: the disclosed winner of one round. */
export const quoteWinnerSchema = z
  .object(quoteWinnerFields)
  .refine(atMostOneOfSignPayloadAndExecutionTx, AT_MOST_ONE)
  .meta({
    id: "QuoteWinner",
    not: { required: ["signPayload", "executionTx"] },
    description:
      "The disclosed winner. At most one of signPayload and executionTx is present; a solver-swap or transfer winner discloses neither and is not completable. A non-prepared winner must be submitted through the replica that quoted it (its id names it); its template is held there for 30 s (20 min on the proxy lanes).",
  });

/** A quote winner as the wire carries it. */
export type QuoteWinner = z.output<typeof quoteWinnerSchema>;

/** POST /quote/prepare: a winner from the chosen provider under the client's preparationId. */
export const preparedQuoteSchema = z
  .object({
    ...quoteWinnerFields,
    preparationId: z.string().describe("Echo of the client's preparationId."),
  })
  .refine(atMostOneOfSignPayloadAndExecutionTx, AT_MOST_ONE)
  .meta({
    id: "PreparedQuote",
    not: { required: ["signPayload", "executionTx"] },
    description:
      "A winner from one chosen provider. A replay with the same body and preparationId returns the same quote and the same expiresAt. Its template is stored with the quote, so it can be submitted through any replica. Prepared terms can differ from preview terms: show them before signing.",
  });

/** A prepared quote as the wire carries it. */
export type PreparedQuote = z.output<typeof preparedQuoteSchema>;

/** One indicative offer of a preview. */
export const quoteOfferSchema = z
  .object({
    ...quoteTermsFields,
    etaSeconds: z.number().int().nonnegative().optional().describe("The provider's estimate of fill time."),
  })
  .meta({
    id: "QuoteOffer",
    description: "Indicative: nothing is reserved; prepare it to get a signable quote.",
  });

/** POST /quote/preview: indicative offers with their provider ids. */
export const quotePreviewSchema = z
  .object({
    quoteRequestId: z.string(),
    offers: z
      .array(quoteOfferSchema)
      .describe("Best first. Pass an offer's provider to POST /quote/prepare."),
  })
  .meta({ id: "QuotePreview" });

/** A preview as the wire carries it. */
export type QuotePreview = z.output<typeof quotePreviewSchema>;
