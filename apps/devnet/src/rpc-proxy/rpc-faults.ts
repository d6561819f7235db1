import { z } from "zod";

/**
 * What the proxy does to the JSON-RPC calls it forwards, as real providers do. Every knob is optional;
 * an empty object forwards every call untouched.
 */
export const rpcFaultsSchema = z
  .object({
    /** HTTP 429 with `Retry-After: retryAfterSeconds` for the next `count` calls (every call when absent). */
    rateLimit: z
      .object({
        retryAfterSeconds: z.number().int().min(0).max(3600),
        count: z.number().int().min(1).optional(),
      })
      .strict(),
    /** eth_getLogs over more blocks than this is refused, in the `style` of a provider. */
    maxLogRange: z.number().int().min(1),
    /**
     * How a wide eth_getLogs is refused: `infura` (-32005 "query returned more than 10000 results"),
     * `range` (-32602 "block range too large"), `alchemy` ("Log response size exceeded ... this block
     * range should work: [0x.., 0x..]"). Default `range`.
     */
    rangeStyle: z.enum(["infura", "range", "alchemy"]),
    /** Every answer waits this long. */
    delayMs: z.number().int().min(0).max(600_000),
    /** Every `resetEvery`-th call has its connection reset without an answer. */
    resetEvery: z.number().int().min(1),
    /** This fraction of calls (0 to 1, drawn at random per request) has its connection reset. */
    resetFraction: z.number().min(0).max(1),
    /** Every call is reset (the node is down). */
    down: z.boolean(),
    /** HTTP 503 for every call (a load balancer without a node). */
    unavailable: z.boolean(),
    /**
     * A lagging node: eth_blockNumber is the real head less this many blocks, and eth_getLogs answers
     * only the logs at or below that head (`[]` for a range wholly past it).
     */
    lagBlocks: z.number().int().min(1),
  })
  .partial()
  .strict();
export type RpcFaults = z.infer<typeof rpcFaultsSchema>;
