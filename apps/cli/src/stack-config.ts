import { isIP } from "node:net";
import { parseCidr } from "@hub/gateway-app";
import { z } from "zod";
import { parseChainRpcUrls } from "./chain-rpc-urls.js";

import { readSecretFiles } from "./secret-files.js";

export { listenerUrl, urlHost } from "./listener-url.js";

const port = z.coerce.number().int().min(0).max(65535);
const positiveInt = z.coerce.number().int().positive();
const positiveNumber = z.coerce.number().positive();
const flag = z.enum(["0", "1", "true", "false"]).transform((v) => v === "1" || v === "true");
/** A listener's bind address: an IPv4 or IPv6 literal (no brackets) or a host name. */
const bindHost = z
  .string()
  .refine(
    (value) =>
      isIP(value) !== 0 ||
      /^[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?)*$/.test(value),
    "an IPv4 or IPv6 address (without brackets) or a host name",
  );
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
    .describe(
      "PostgreSQL server; unset uses the embedded PGlite under HUB_DATA_DIR. Also as DATABASE_URL_FILE.",
    ),
  REDIS_URL: z
    .string()
    .url()
    .optional()
    .describe(
      "Redis for shared counters across replicas; unset keeps counters in memory. Also as REDIS_URL_FILE.",
    ),
  GATEWAY_HOST: bindHost
    .default("127.0.0.1")
    .describe("Address the gateway listens on (IPv4 or IPv6, e.g. 0.0.0.0, ::1)."),
  GATEWAY_PORT: port
    .default(8080)
    .describe("Public gateway listener (base URL http://GATEWAY_HOST:PORT/v1)."),
  DASHBOARD_HOST: bindHost.default("127.0.0.1").describe("Address the dashboard listens on."),
  DASHBOARD_PORT: port
    .default(8081)
    .describe("Dashboard listener on DASHBOARD_HOST (members and operators sign in here)."),
  DASHBOARD_PUBLIC_ORIGIN: z
    .string()
    .url()
    .optional()
    .describe(
      "The dashboard's origin as browsers reach it (checked against Origin; https makes cookies Secure); defaults to http://127.0.0.1:DASHBOARD_PORT.",
    ),
  GATEWAY_PUBLIC_BASE_URL: z
    .string()
    .url()
    .transform((url) => url.replace(/\/+$/, ""))
    .optional()
    .describe(
      "The API's base URL as members reach it (e.g. https://api.example.com/v1): shown by the dashboard and written to dev.json; defaults to the gateway's listener.",
    ),
  HUB_HOST: bindHost.default("127.0.0.1").describe("Address the hub listens on."),
  HUB_PORT: port.default(8090).describe("Hub listener (calls only from the gateway, with its credential)."),
  METRICS_HOST: bindHost
    .default("127.0.0.1")
    .describe("Address the operator listener (/metrics, /livez, /readyz) listens on."),
  METRICS_ALLOW_REMOTE: flag
    .default(false)
    .describe(
      "1 lets METRICS_HOST be a non-loopback address; the operator listener has no authentication, so only on a private network.",
    ),
  HUB_URL: z
    .string()
    .url()
    .optional()
    .describe(
      "The hub a gateway started with --only gateway calls (http://host:port); defaults to http://HUB_HOST:HUB_PORT.",
    ),
  METRICS_PORT: port
    .default(9090)
    .describe("Operator listener on METRICS_HOST serving /metrics of every process of the stack."),
  DEVNET_PORT: port.default(4000).describe("Devnet control, aggregator and solver APIs."),
  DEVNET_RPC_PORTS: portList.default([8545, 8546]).describe("The two devnet chains' JSON-RPC ports."),
  DEVNET_RPC_FAULT_PORTS: portList
    .optional()
    .describe(
      "The devnet chains' fault-injecting JSON-RPC proxies (docs/devnet.md, RPC faults); unset picks free ports.",
    ),
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
    .transform((value, context) => {
      try {
        return parseChainRpcUrls(value);
      } catch (error) {
        context.addIssue({ code: "custom", message: (error as Error).message });
        return z.NEVER;
      }
    })
    .optional()
    .describe(
      'JSON-RPC URLs per chain, in preference order: chainDomain=url|url,chainDomain=url (cut at the first =, so query strings stay whole) or JSON {"chainDomain": ["url", ...]}; defaults to the devnet\'s chains, and with the devnet overrides their URLs (say a fault proxy). Also as HUB_CHAIN_RPC_URLS_FILE.',
    ),
  HUB_REPLICA_ID: z
    .string()
    .regex(/^[a-z0-9]{1,16}$/)
    .default("r1")
    .describe("This hub replica's id, carried in the quote ids it issues."),
  HUB_GATEWAY_SECRET: z
    .string()
    .min(32)
    .optional()
    .describe(
      "Shared secret the gateway sends to the hub; random per start when unset, required once they run apart. Also as HUB_GATEWAY_SECRET_FILE.",
    ),
  HUB_DEV_ORIGIN: z
    .string()
    .url()
    .default("http://127.0.0.1:8081")
    .describe("Allowed web origin of the development project."),
  HUB_DEV_WEB_ORIGIN: z
    .string()
    .url()
    .default("http://127.0.0.1:5173")
    .describe("A second allowed origin of the development project: the web example (npm run example:web)."),
  HUB_TENANT_RPS: positiveInt
    .default(5)
    .describe("Hub bucket refill per organization, per bucket (quote, order)."),
  HUB_TENANT_BURST: positiveInt.default(20).describe("Hub bucket size per organization."),
  HUB_BUCKET_IDLE_SECONDS: positiveInt
    .default(600)
    .describe("Idle time after which a caller's buckets are dropped."),
  HUB_QUOTES_IN_FLIGHT: positiveInt.default(64).describe("Quotes in flight process-wide before EIN0081."),
  HUB_QUOTE_LIFETIME_SECONDS: positiveInt
    .default(30)
    .describe("A winner's lifetime (expiresAt), never past the upstream's own validity."),
  HUB_QUOTE_MAX_DEADLINE_SECONDS: positiveInt
    .default(86_400)
    .describe(
      "How far ahead an upstream quote's fill deadline or expiry may lie; further is discarded at vetting (deadline-too-far).",
    ),
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
      "Share of the hub's organization rate and burst a project id's quotes and submissions spend together (EPX0080 past it).",
    ),
  GATEWAY_PROJECT_QUOTE_COST: positiveInt
    .default(120)
    .describe(
      "Reads one quote or submission costs in a project id's pool and visitor bucket (a read costs 1); the pool is the project share of the hub's rate and burst times it.",
    ),
  GATEWAY_VISITOR_RPS: positiveNumber
    .default(15)
    .describe(
      "Refill of one visitor address's bucket per project id, in reads per second (EPX0082 past it).",
    ),
  GATEWAY_VISITOR_BURST: positiveInt
    .default(480)
    .describe("Size of one visitor address's bucket, in reads; at least GATEWAY_PROJECT_QUOTE_COST."),
  GATEWAY_ORGANIZATION_RPS: positiveNumber
    .default(100)
    .describe("Refill of an organization's pool for its API keys, calls per second (EPX0080 past it)."),
  GATEWAY_ORGANIZATION_BURST: positiveInt
    .default(200)
    .describe("Size of an organization's pool for its API keys."),
  GATEWAY_TRUSTED_PROXIES: z
    .string()
    .transform((v) => v.split(",").map((entry) => entry.trim()))
    .refine((list) => list.every((entry) => parseCidr(entry) !== undefined), "comma-separated CIDRs")
    .optional()
    .describe("Reverse proxies' networks (CIDR list); only their X-Forwarded-For is believed."),
  DASHBOARD_TRUSTED_PROXIES: z
    .string()
    .transform((v) => v.split(",").map((entry) => entry.trim()))
    .refine((list) => list.every((entry) => parseCidr(entry) !== undefined), "comma-separated CIDRs")
    .optional()
    .describe(
      "Reverse proxies' networks (CIDR list) in front of the dashboard; only their X-Forwarded-For is believed. Unset: GATEWAY_TRUSTED_PROXIES.",
    ),
  RETENTION_SESSIONS_DAYS: positiveInt
    .default(1)
    .describe("Days an ended dashboard session is kept before the leader deletes it."),
  RETENTION_INVITES_DAYS: positiveInt
    .default(7)
    .describe("Days an expired invitation (used or not) is kept before the leader deletes it."),
  RETENTION_USAGE_DAYS: positiveInt
    .default(35)
    .describe(
      "Days per-minute usage rows are kept (the Usage page and `hub admin usage` read at most the last 7).",
    ),
  RETENTION_AUDIT_DAYS: positiveInt.default(400).describe("Days audit log entries are kept."),
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
    .describe(
      "Blocks the reconciler may be behind a chain's head before /readyz names it (degraded, still 200).",
    ),
  HUB_READY_MAX_LAG_SLOTS: positiveInt
    .default(150)
    .describe(
      "Slots the reconciler may be behind a Solana chain's slot before /readyz names it (degraded, still 200).",
    ),
  HUB_CHAIN_STALE_SECONDS: positiveInt
    .default(120)
    .describe(
      "A chain the reconciler has not indexed successfully for this long is named in /readyz (degraded) and hub_reconciler_chain_stale.",
    ),
});

export type StackConfig = z.infer<typeof stackConfigSchema>;

/**
 * Parses the environment once, each secret variable's NAME_FILE read into NAME; throws one error listing
 * every problem.
 */
export function parseStackConfig(given: Record<string, string | undefined>): StackConfig {
  const { env, problems } = readSecretFiles(given);
  const known = Object.fromEntries(
    Object.keys(stackConfigSchema.shape)
      .filter((name) => env[name] !== undefined && env[name] !== "")
      .map((name) => [name, env[name]]),
  );
  const parsed = stackConfigSchema.safeParse(known);
  if (parsed.success && parsed.data.GATEWAY_VISITOR_BURST < parsed.data.GATEWAY_PROJECT_QUOTE_COST) {
    problems.push(
      `GATEWAY_VISITOR_BURST: at least GATEWAY_PROJECT_QUOTE_COST (${parsed.data.GATEWAY_PROJECT_QUOTE_COST}), or no visitor can ever quote`,
    );
  }
  if (parsed.success && problems.length === 0) return parsed.data;
  const lines = [
    ...problems.map((problem) => `  ${problem}`),
    ...(parsed.error?.issues ?? []).map((issue) => `  ${issue.path.join(".")}: ${issue.message}`),
  ];
  throw new Error(`invalid configuration:\n${lines.join("\n")}`);
}
