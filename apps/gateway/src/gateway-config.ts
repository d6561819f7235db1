import { z } from "zod";
import { parseCidr } from "./parse-cidr.js";

const bucketRule = z.object({
  ratePerSecond: z.number().positive(),
  burst: z.number().int().positive(),
});

/**
 * The gateway's configuration, parsed once by createGatewayApp. Defaults are the spec's values where it
 * gives one and docs/decisions/gateway.md's where it is silent; tests may shorten them.
 */
export const gatewayConfigSchema = z
  .object({
    /** Shared secret sent to the hub as X-Gateway-Credential. */
    hubCredential: z.string().min(1),
    userAgent: z.string().min(1).default("intent-hub-gateway/0.1.0"),
    bodyLimitBytes: z.number().int().positive().default(65_536),
    quoteTimeoutMs: z.number().int().positive().default(20_000),
    timeoutMs: z.number().int().positive().default(10_000),
    /** How long a request body may take to arrive before EPX0006. */
    bodyReadTimeoutMs: z.number().int().positive().default(10_000),
    /** One pool per organization for its keys, any IP. */
    organizationPool: bucketRule.default({ ratePerSecond: 100, burst: 200 }),
    /** The hub's per-organization bucket (HUB_TENANT_RPS, HUB_TENANT_BURST); the project pool is a share of it. */
    hubOrganizationBucket: bucketRule.default({ ratePerSecond: 5, burst: 20 }),
    /** Share of the hub's per-organization rate that anonymous callers of one project may spend together. */
    projectShare: z.number().gt(0).max(1).default(0.5),
    /**
     * What a call to a route the hub charges to a bucket (quotes, submissions) takes from the project
     * pool and the visitor bucket, in reads: every other route takes 1.
     */
    projectQuoteCost: z.number().int().positive().default(120),
    /**
     * One pool per project for its project id, all visitors together, in reads; unset: projectShare of
     * hubOrganizationBucket, times projectQuoteCost.
     */
    projectPool: bucketRule.optional(),
    /** One bucket per project and visitor IP, in reads. */
    visitorBucket: bucketRule.default({ ratePerSecond: 15, burst: 480 }),
    lockoutFailures: z.number().int().positive().default(20),
    lockoutWindowMs: z.number().int().positive().default(60_000),
    /**
     * Networks of the reverse proxies in front (CIDR, IPv4 or IPv6): only a call from one of them has its
     * X-Forwarded-For read. Empty: the socket's address is the caller's.
     */
    trustedProxies: z
      .array(
        z.string().refine((text) => parseCidr(text) !== undefined, "a CIDR such as 10.0.0.0/8 or ::1/128"),
      )
      .default([]),
    preflightMaxAgeSeconds: z.number().int().nonnegative().default(600),
  })
  .superRefine((config, context) => {
    // A bucket smaller than a quote's cost would refuse every quote and submission for good.
    for (const name of ["visitorBucket", "projectPool"] as const) {
      const burst = config[name]?.burst;
      if (burst !== undefined && burst < config.projectQuoteCost) {
        context.addIssue({
          code: "custom",
          path: [name, "burst"],
          message: `at least projectQuoteCost (${config.projectQuoteCost}), or no quote is ever admitted`,
        });
      }
    }
  });

/** The configuration as given: every field with a default may be left out. */
export type GatewayConfigInput = z.input<typeof gatewayConfigSchema>;
/** The configuration after parsing, every default filled in. */
export type GatewayConfig = z.output<typeof gatewayConfigSchema>;
