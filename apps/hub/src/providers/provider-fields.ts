import { z } from "zod";

/** The configuration fields every provider kind has. */
export const providerFields = {
  /** Stable id; offers name it (`<id>.<solverId>`), so it holds no dot. */
  id: z.string().regex(/^[A-Za-z0-9_-]{1,32}$/, "1 to 32 of letters, digits, _ and -"),
  baseUrl: z.url({ protocol: /^https?$/ }).transform((url) => url.replace(/\/+$/, "")),
  /** Sent on every call (e.g. the hub's credential at that upstream). */
  headers: z.record(z.string(), z.string()).default({}),
  /** Per-call timeout; a quote round also stops at its own deadline. */
  timeoutMs: z.number().int().positive().max(60_000).default(5000),
  /** Keep-alive connections to this provider. */
  connections: z.number().int().positive().default(16),
  enabled: z.boolean().default(true),
};
