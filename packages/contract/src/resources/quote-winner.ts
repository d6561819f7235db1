import { z } from "zod";
import { executionTxSchema } from "./execution-tx.js";
import { type Lane, laneSchema } from "./lane.js";
import { providerIdSchema } from "./prepare-quote-request.js";
import { swapTypeSchema } from "./quote-request.js";
import {
  eip3009PayloadSchema,
  signPayloadSchema,
  solanaSignPayloadSchema,
  typedDataSchema,
} from "./sign-payload.js";
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

/** The fields every disclosed winner carries, whatever its lane. */
const winnerCommonFields = {
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
};

const signIntentSchema = z
  .string()
  .describe(
    "Open flow and solver-swap only (the winners POST /order registers): personal_sign it verbatim for POST /order. Absent when the hub could not build it: then re-quote before sending anything.",
  );

/** What each lane's winner carries besides the common fields: the payload the user acts on. */
const lanePayloads = {
  "oif-escrow-gasless": { signPayload: typedDataSchema },
  "aggregator-gasless": { signPayload: eip3009PayloadSchema },
  "oif-escrow-nonevm": { signPayload: solanaSignPayloadSchema },
  "oif-wrap-native": { executionTx: executionTxSchema },
  "oif-swap-token": { executionTx: executionTxSchema, swapInput: swapInputSchema },
  "open-flow": { executionTx: executionTxSchema, signIntent: signIntentSchema.optional() },
  "solver-swap": { signIntent: signIntentSchema.optional() },
  transfer: {},
} as const satisfies Record<Lane, z.ZodRawShape>;

const LANE_VARIANT_NAMES: Record<Lane, string> = {
  "oif-escrow-gasless": "Permit2",
  "aggregator-gasless": "Eip3009",
  "oif-escrow-nonevm": "Solana",
  "oif-wrap-native": "WrapNative",
  "oif-swap-token": "SwapToken",
  "open-flow": "OpenFlow",
  "solver-swap": "SolverSwap",
  transfer: "Transfer",
};

/** The disclosure of one lane's winner: the lane's own payload member is typed, the terms stay open. */
function disclosureOf<L extends Lane>(lane: L) {
  const { swapInput: _swapInput, signIntent: _signIntent, ...payload } = lanePayloads[lane] as z.ZodRawShape;
  return z.object({
    signablePayload: z
      .looseObject({
        kind: z.literal(lane),
        ...payload,
        ...("signPayload" in payload
          ? {
              typedDataHash: hex32Schema
                .optional()
                .describe("The EIP-712 hash of the typed data the upstream asked to sign."),
            }
          : {}),
        terms: z
          .record(z.string(), z.unknown())
          .describe("The quote's terms the signature or the transactions commit to."),
      })
      .describe(
        "What the user commits to: `kind` names the lane, beside it the lane's payload (signPayload or executionTx) and the quote's terms.",
      ),
    signableHash: hex32Schema.describe(
      "`0x` + SHA-256 of the canonical JSON (keys sorted, no whitespace) of signablePayload; send it as artifactHash on POST /order.",
    ),
  });
}

/** One lane's winner (or prepared quote, with `extra`), named `<prefix><Lane>` in the document. */
function laneWinner<L extends Lane>(lane: L, prefix: string, extra: z.ZodRawShape) {
  return z
    .object({
      ...winnerCommonFields,
      lane: z.literal(lane),
      disclosure: disclosureOf(lane),
      ...lanePayloads[lane],
      ...extra,
    })
    .meta({ id: `${prefix}${LANE_VARIANT_NAMES[lane]}` });
}

/** The fields of a disclosed winner, as one object whose lane-dependent members are all optional. */
const quoteWinnerObject = z.object({
  ...winnerCommonFields,
  disclosure: z.object({
    signablePayload: z.looseObject({ kind: laneSchema }),
    signableHash: hex32Schema,
  }),
  signPayload: signPayloadSchema.optional(),
  executionTx: executionTxSchema.optional(),
  signIntent: signIntentSchema.optional(),
  swapInput: swapInputSchema.optional(),
});

/** A quote winner as the wire carries it: every lane's members, each optional (narrow by `lane`). */
export type QuoteWinner = z.output<typeof quoteWinnerObject>;

/** A prepared quote as the wire carries it. */
export type PreparedQuote = QuoteWinner & { preparationId: string };

/** The spec: at most one of signPayload and executionTx is present; checked on what was sent, before a lane's variant drops the other. */
function atMostOneOfSignPayloadAndExecutionTx<T extends z.ZodType>(union: T) {
  return z.preprocess((input, context) => {
    const winner = input as { signPayload?: unknown; executionTx?: unknown } | null;
    if (winner?.signPayload !== undefined && winner.executionTx !== undefined) {
      context.issues.push({
        code: "custom",
        message: "at most one of signPayload and executionTx is present",
        path: ["executionTx"],
        input,
      });
    }
    return input;
  }, union);
}

/** The winners of every lane as one union discriminated by `lane`, for the document and the checks. */
function winnerUnion(prefix: string, extra: z.ZodRawShape, description: string) {
  const lanes = laneSchema.options;
  const variants = lanes.map((lane) => laneWinner(lane, prefix, extra));
  const union = z.discriminatedUnion("lane", variants as unknown as [ReturnType<typeof laneWinner>]).meta({
    id: prefix,
    description,
    discriminator: {
      propertyName: "lane",
      mapping: Object.fromEntries(
        lanes.map((lane) => [lane, `#/components/schemas/${prefix}${LANE_VARIANT_NAMES[lane]}`]),
      ),
    },
  });
  return atMostOneOfSignPayloadAndExecutionTx(union);
}

/** POST /quote: the disclosed winner of one round. */
export const quoteWinnerSchema: z.ZodType<QuoteWinner> = winnerUnion(
  "QuoteWinner",
  {},
  "The disclosed winner, by lane. Signature lanes carry signPayload, the proxy lanes and the open flow executionTx; a solver-swap or transfer winner discloses neither and is not completable. A non-prepared winner must be submitted through the replica that quoted it (its id names it); its template is held there for 30 s (20 min on the proxy lanes).",
);

/** POST /quote/prepare: a winner from the chosen provider under the client's preparationId. */
export const preparedQuoteSchema: z.ZodType<PreparedQuote> = winnerUnion(
  "PreparedQuote",
  { preparationId: z.string().describe("Echo of the client's preparationId.") },
  "A winner from one chosen provider, by lane. A replay with the same body and preparationId returns the same quote and the same expiresAt. Its template is stored with the quote, so it can be submitted through any replica. Prepared terms can differ from preview terms: show them before signing.",
);

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
