import { z } from "zod";

const DAY_MS = 24 * 3_600_000;

function bucketSchema(defaults: { ratePerSecond: number; burst: number }) {
  return z.object({
    ratePerSecond: z.number().positive().default(defaults.ratePerSecond),
    burst: z.number().int().positive().default(defaults.burst),
  });
}

/** The hub's configuration: every limit with the spec's value as its default. */
export const hubConfigSchema = z.object({
  /** Shared secret the gateway sends in X-Gateway-Credential; calls without it are refused. */
  gatewayCredential: z.string().min(32),
  /**
   * Largest body the hub reads; a bigger one reads as empty (spec common rule 8). 16 KiB, over three
   * times the largest valid body, keeps the JSON parse of the worst admitted body under 1 ms of CPU.
   */
  bodyLimitBytes: z.number().int().positive().default(16_384),
  /** How long a body may take to arrive on the hub's own listener before it reads as empty; the gateway's value. */
  bodyReadTimeoutMs: z.number().int().positive().default(10_000),
  /** Per-organization buckets: the quote routes share one, the two order routes another. */
  organizationBucket: bucketSchema({ ratePerSecond: 5, burst: 20 }).prefault({}),
  /** The per-IP limiter (EMC0005 with a DDoS check text past it). */
  perIpBucket: bucketSchema({ ratePerSecond: 1000, burst: 2000 }).prefault({}),
  /** Quotes in flight process-wide before EIN0081. */
  quotesInFlight: z.number().int().nonnegative().default(64),
  /**
   * Calls in flight to one provider (quotes and submissions together) before EIN0081, nothing sent.
   * 128 lets the 64 quotes in flight ask both OIF lanes, so by default quotesInFlight binds first.
   */
  outboundPerProvider: z.number().int().positive().default(128),
  /** A quote round's deadline: providers still unanswered then are dropped. */
  quoteDeadlineMs: z.number().int().positive().default(15_000),
  /** A winner's lifetime (expiresAt), never past the upstream's own validUntil. */
  quoteLifetimeMs: z.number().int().positive().default(30_000),
  /** How far ahead an upstream answer's fill deadline or expiry may lie; further is discarded at vetting. */
  quoteMaxDeadlineMs: z
    .number()
    .int()
    .positive()
    .default(24 * 3_600_000),
  /** How long a quote no order refers to is kept after it stops being registrable; the reconciler leader prunes it. */
  quoteRetentionMs: z
    .number()
    .int()
    .positive()
    .default(7 * 24 * 3_600_000),
  /** How long ended sessions, expired invitations, usage minutes and audit entries are kept (the leader deletes past it). */
  retention: z
    .object({
      expiredSessionsMs: z.number().int().positive().default(DAY_MS),
      expiredInvitesMs: z
        .number()
        .int()
        .positive()
        .default(7 * DAY_MS),
      usageMinutesMs: z
        .number()
        .int()
        .positive()
        .default(35 * DAY_MS),
      auditMs: z
        .number()
        .int()
        .positive()
        .default(400 * DAY_MS),
    })
    .default({
      expiredSessionsMs: DAY_MS,
      expiredInvitesMs: 7 * DAY_MS,
      usageMinutesMs: 35 * DAY_MS,
      auditMs: 400 * DAY_MS,
    }),
  /**
   * The least validity an external open-flow answer must have left when vetted, else it is discarded
   * (counted as expired): the user mines an approval and a deposit before POST /order.
   */
  openFlowMinValidityMs: z.number().int().positive().default(15_000),
  /** How long a proxy-lane quote stays registrable on POST /order/openfor (its template is held as long). */
  proxyTemplateHoldMs: z.number().int().positive().default(1_200_000),
  /** Whether POST /order admits a registration with none of signature, signer and scheme (else EIN0010). */
  unsignedOpenFlowRegistration: z.boolean().default(false),
  /** How long GET /order/{orderId}/status serves a read without asking the upstream again. */
  statusCacheMs: z.number().int().positive().default(2_000),
  /** Orders the status projection holds in memory; a read that would add one more answers EIN0081. */
  statusProjectionCapacity: z.number().int().positive().default(100_000),
  /** An order unread this long may leave a full projection (its view stays in the database). */
  statusProjectionIdleEvictMs: z.number().int().positive().default(600_000),
  /** One upstream order read's timeout; past it the last good state is served with upstreamStale. */
  statusRefreshTimeoutMs: z.number().int().positive().default(3_000),
});

/** The configuration as given, defaults optional. */
export type HubConfigInput = z.input<typeof hubConfigSchema>;
/** The configuration with every default filled in. */
export type HubConfig = z.output<typeof hubConfigSchema>;

/** Parses the configuration once; throws one error listing every problem. */
export function parseHubConfig(input: HubConfigInput): HubConfig {
  const parsed = hubConfigSchema.safeParse(input);
  if (parsed.success) return parsed.data;
  const lines = parsed.error.issues.map((issue) => `  ${issue.path.join(".")}: ${issue.message}`);
  throw new Error(`invalid hub configuration:\n${lines.join("\n")}`);
}
