import { parseCidr } from "@hub/gateway-app";
import { z } from "zod";

const port = z.coerce.number().int().min(0).max(65535);
const positiveInt = z.coerce.number().int().positive();
const flag = z.enum(["0", "1", "true", "false"]).transform((v) => v === "1" || v === "true");
const portList = z
  .string()
  .regex(/^\d+(,\d+)*$/, "comma-separated ports")
  .transform((v) => v.split(",").map(Number));

/**
 * Every variable the stack reads, with its default. The README's configuration table is this list;
 * a test holds the two together.
 */
export const stackConfigSchema = z.object({
  HUB_DATA_DIR: z
    .string()
    .min(1)
    .default(".data")
    .describe("Folder for the embedded database, dev.json and devnet files."),
  DATABASE_URL: z
    .string()
    .url()
    .optional()
    .describe("PostgreSQL server; unset uses the embedded PGlite under HUB_DATA_DIR."),
  REDIS_URL: z
    .string()
    .url()
    .optional()
    .describe("Redis for shared counters across replicas; unset keeps counters in memory."),
  GATEWAY_PORT: port.default(8080).describe("Public gateway listener (base URL http://127.0.0.1:PORT/v1)."),
  DASHBOARD_PORT: port
    .default(8081)
    .describe("Dashboard listener on 127.0.0.1 (members and operators sign in here)."),
  DASHBOARD_PUBLIC_ORIGIN: z
    .string()
    .url()
    .optional()
    .describe(
      "The dashboard's origin as browsers reach it (checked against Origin; https makes cookies Secure); defaults to http://127.0.0.1:DASHBOARD_PORT.",
    ),
  HUB_PORT: port.default(8090).describe("Hub listener (calls only from the gateway, with its credential)."),
  METRICS_PORT: port
    .default(9090)
    .describe("Operator listener on 127.0.0.1 serving /metrics of every process of the stack."),
  DEVNET_PORT: port.default(4000).describe("Devnet control, aggregator and solver APIs."),
  DEVNET_RPC_PORTS: portList.default([8545, 8546]).describe("The two devnet chains' JSON-RPC ports."),
  DEVNET_SOLANA_RPC_PORT: port.default(8899).describe("The devnet's Solana stand-in JSON-RPC port."),
  HUB_DEVNET: flag
    .default(true)
    .describe("1 starts the local devnet; 0 uses the configured upstreams and chains."),
  HUB_CATALOG_FILE: z
    .string()
    .optional()
    .describe("Catalog file; defaults to the devnet's when the devnet runs."),
  HUB_PROVIDERS_FILE: z
    .string()
    .optional()
    .describe(
      "JSON list of upstream providers (kind oif-aggregator, the default, with dialect oif-spec-1, the default, or oif-aggregator; or external-aggregator); defaults to the devnet's OIF aggregator in both dialects and its external aggregator when the devnet runs.",
    ),
  HUB_CHAIN_RPC_URLS: z
    .string()
    .regex(/^[^=,]+=[^,]+(,[^=,]+=[^,]+)*$/, "comma-separated chainDomain=url pairs")
    .transform((value) =>
      Object.fromEntries(value.split(",").map((pair) => pair.split("=", 2) as [string, string])),
    )
    .optional()
    .describe("JSON-RPC URL per catalog chain (chainDomain=url,...); defaults to the devnet's chains."),
  HUB_REPLICA_ID: z
    .string()
    .regex(/^[a-z0-9]{1,16}$/)
    .default("r1")
    .describe("This hub replica's id, carried in the quote ids it issues."),
  HUB_GATEWAY_SECRET: z
    .string()
    .min(32)
    .optional()
    .describe("Shared secret the gateway sends to the hub; random per start when unset."),
  HUB_DEV_ORIGIN: z
    .string()
    .url()
    .default("http://127.0.0.1:8081")
    .describe("Allowed web origin of the development project."),
  HUB_TENANT_RPS: positiveInt
    .default(5)
    .describe("Hub bucket refill per organization, per bucket (quote, order)."),
  HUB_TENANT_BURST: positiveInt.default(20).describe("Hub bucket size per organization."),
  HUB_BUCKET_IDLE_SECONDS: positiveInt
    .default(600)
    .describe("Idle time after which a caller's buckets are dropped."),
  HUB_QUOTES_IN_FLIGHT: positiveInt.default(64).describe("Quotes in flight process-wide before EIN0081."),
  HUB_OUTBOUND_PER_PROVIDER: positiveInt
    .default(128)
    .describe("Calls in flight to one upstream provider before EIN0081, nothing sent."),
  HUB_PER_IP_RPS: positiveInt.default(1000).describe("Hub per-IP limiter refill (EMC0005 past it)."),
  HUB_PER_IP_BURST: positiveInt.default(2000).describe("Hub per-IP limiter burst."),
  HUB_UNSIGNED_OPEN_FLOW_REGISTRATION: flag
    .default(false)
    .describe("1 admits unsigned open-flow registrations on POST /order (spec rule 1); 0 answers EIN0010."),
  GATEWAY_QUOTE_TIMEOUT_MS: positiveInt
    .default(20000)
    .describe("Gateway wait on quote routes before EPX0052."),
  GATEWAY_TIMEOUT_MS: positiveInt
    .default(10000)
    .describe("Gateway wait on every other route before EPX0052."),
  GATEWAY_BODY_LIMIT_BYTES: positiveInt
    .default(65536)
    .describe("Largest request body the gateway admits (EPX0005 past it)."),
  GATEWAY_PROJECT_SHARE: z.coerce
    .number()
    .gt(0)
    .max(1)
    .default(0.5)
    .describe(
      "Share of the hub's organization rate a project id's visitors spend together (EPX0080 past it).",
    ),
  GATEWAY_TRUSTED_PROXIES: z
    .string()
    .transform((v) => v.split(",").map((entry) => entry.trim()))
    .refine((list) => list.every((entry) => parseCidr(entry) !== undefined), "comma-separated CIDRs")
    .optional()
    .describe("Reverse proxies' networks (CIDR list); only their X-Forwarded-For is believed."),
  LOG_LEVEL: z
    .enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"])
    .default("info")
    .describe("Log level of every process."),
  LOG_FORMAT: z
    .enum(["json", "pretty"])
    .optional()
    .describe(
      "Log lines as JSON or human-readable (pino-pretty); unset: pretty on a terminal, JSON otherwise.",
    ),
  HUB_READY_MAX_LAG_BLOCKS: positiveInt
    .default(64)
    .describe("Blocks the reconciler may be behind a chain's head before /readyz says not ready."),
  HUB_READY_MAX_LAG_SLOTS: positiveInt
    .default(150)
    .describe("Slots the reconciler may be behind a Solana chain's slot before /readyz says not ready."),
});

export type StackConfig = z.infer<typeof stackConfigSchema>;

/** Parses the environment once; throws one error listing every problem. */
export function parseStackConfig(env: Record<string, string | undefined>): StackConfig {
  const known = Object.fromEntries(
    Object.keys(stackConfigSchema.shape)
      .filter((name) => env[name] !== undefined && env[name] !== "")
      .map((name) => [name, env[name]]),
  );
  const parsed = stackConfigSchema.safeParse(known);
  if (parsed.success) return parsed.data;
  const lines = parsed.error.issues.map((issue) => `  ${issue.path.join(".")}: ${issue.message}`);
  throw new Error(`invalid configuration:\n${lines.join("\n")}`);
}
