import { z } from "zod";

const interopAddress = z.string().regex(/^0x[0-9a-fA-F]+$/, "ERC-7930 interop address as 0x hex");
const amount = z.string().regex(/^[0-9]+$/, "decimal string of base units");

/** Auth scheme names as the reference code spells them, plus the oif-specs spellings and the Solana lane's. */
export const authSchemes = [
  "erc4337",
  "permit2",
  "erc20-permit",
  "eip3009",
  "erc-4337",
  "eip-3009",
  "ed25519",
] as const;

type ObjectSchema = typeof z.object;

/** The request schemas with objects of one kind: strict (the reference) or stripping unknown fields (the specification). */
function quoteRequestSchemas(object: ObjectSchema) {
  const inputSchema = object({
    user: interopAddress,
    asset: interopAddress,
    amount: amount.optional(),
    lock: object({ kind: z.enum(["the-compact", "rhinestone"]), params: z.unknown().optional() }).optional(),
  });

  const outputSchema = object({
    receiver: interopAddress,
    asset: interopAddress,
    amount: amount.optional(),
    calldata: z.string().optional(),
  });

  const intentSchema = object({
    intentType: z.literal("oif-swap"),
    inputs: z.array(inputSchema),
    outputs: z.array(outputSchema),
    swapType: z.enum(["exact-input", "exact-output"]).optional(),
    minValidUntil: z.number().int().min(0).optional(),
    preference: z
      .enum(["price", "speed", "inputPriority", "trustMinimization", "input-priority", "trust-minimization"])
      .optional(),
    originSubmission: object({
      mode: z.enum(["user", "protocol"]),
      schemes: z.array(z.enum(authSchemes)).optional(),
    }).optional(),
    failureHandling: z.array(z.enum(["refund-automatic", "refund-claim", "needs-new-signature"])).optional(),
    partialFill: z.boolean().optional(),
    metadata: z.unknown().optional(),
  });

  /** The OIF v0 GetQuoteRequest, which the aggregator forwards to each solver. */
  const getQuoteRequestSchema = object({
    user: interopAddress,
    intent: intentSchema,
    supportedTypes: z.array(z.string()),
  });

  const solverOptionsSchema = object({
    includeSolvers: z.array(z.string()).optional(),
    excludeSolvers: z.array(z.string()).optional(),
    timeout: z.number().int().optional(),
    solverTimeout: z.number().int().optional(),
    minQuotes: z.number().int().optional(),
    solverSelection: z.enum(["all", "sampled", "priority"]).optional(),
    sampleSize: z.number().int().optional(),
    priorityThreshold: z.number().int().optional(),
  });

  /** The aggregator's quote request: the GetQuoteRequest plus solverOptions and metadata, unknown fields denied. */
  const aggregatorQuoteRequestSchema = getQuoteRequestSchema.extend({
    solverOptions: solverOptionsSchema.optional(),
    metadata: z.unknown().optional(),
  });

  return { intentSchema, getQuoteRequestSchema, solverOptionsSchema, aggregatorQuoteRequestSchema };
}

// The reference denies unknown fields (serde deny_unknown_fields); the specification does not ask for it.
const strict = quoteRequestSchemas(z.strictObject as unknown as ObjectSchema);
export const { intentSchema, getQuoteRequestSchema, solverOptionsSchema, aggregatorQuoteRequestSchema } =
  strict;
const loose = quoteRequestSchemas(z.object);
/** The aggregator's quote request as the specification's face reads it: unknown fields are dropped. */
export const specQuoteRequestSchema = loose.aggregatorQuoteRequestSchema;
/** A solver's quote request as the specification's face reads it: unknown fields are dropped. */
export const specGetQuoteRequestSchema = loose.getQuoteRequestSchema;

export type GetQuoteRequest = z.infer<typeof getQuoteRequestSchema>;
export type AggregatorQuoteRequest = z.infer<typeof aggregatorQuoteRequestSchema>;
export type SolverOptions = z.infer<typeof solverOptionsSchema>;

/** The reference's semantic checks after deserialisation; the message of the first failure, or undefined. */
export function validateQuoteRequest(request: GetQuoteRequest): string | undefined {
  const { intent } = request;
  if (request.supportedTypes.length === 0) return "supportedTypes must not be empty";
  if (intent.inputs.length === 0) return "intent.inputs must not be empty";
  if (intent.outputs.length === 0) return "intent.outputs must not be empty";
  const exactOutput = intent.swapType === "exact-output";
  for (const [i, input] of intent.inputs.entries()) {
    if (!exactOutput && input.amount === undefined) return `inputs[${i}].amount is required for exact-input`;
    if (input.amount !== undefined && BigInt(input.amount) === 0n) return `inputs[${i}].amount must be > 0`;
    if (request.supportedTypes.includes("oif-resource-lock-v0") && !input.lock)
      return `inputs[${i}].lock is required for oif-resource-lock-v0`;
  }
  for (const [i, output] of intent.outputs.entries()) {
    if (exactOutput && output.amount === undefined)
      return `outputs[${i}].amount is required for exact-output`;
    if (output.amount !== undefined && BigInt(output.amount) === 0n)
      return `outputs[${i}].amount must be > 0`;
  }
  return undefined;
}
