import { constants } from "node:fs";
import { access, mkdir, rm, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { parseStackConfig } from "./stack-config.js";
import { isLoopbackHost, type StackRole, unsafeSettings } from "./stack-roles.js";

/** One finding: a `fail` would break or expose a production deployment; a `warn` is worth a look. */
export interface SettingFinding {
  severity: "fail" | "warn";
  message: string;
}

const isHttps = (url: string | undefined) => url?.startsWith("https://") === true;

/**
 * What is wrong with these settings for production, one finding each: everything `hub start` would
 * refuse, then the bind addresses, secrets, public addresses, trusted proxies and the data dir.
 */
export async function checkProductionSettings(
  env: Record<string, string | undefined>,
  roles: ReadonlySet<StackRole>,
): Promise<SettingFinding[]> {
  let config: ReturnType<typeof parseStackConfig>;
  try {
    config = parseStackConfig(env);
  } catch (error) {
    return (error as Error).message
      .split("\n")
      .slice(1)
      .map((line) => ({ severity: "fail" as const, message: line.trim() }));
  }
  const findings: SettingFinding[] = unsafeSettings(config, roles).map((message) => ({
    severity: "fail",
    message,
  }));
  const fail = (message: string) => findings.push({ severity: "fail", message });
  const warn = (message: string) => findings.push({ severity: "warn", message });

  if (config.HUB_DEVNET)
    fail("HUB_DEVNET=1 starts the local devnet: set HUB_DEVNET=0 and the real upstreams");
  if (!config.DATABASE_URL)
    fail("DATABASE_URL is unset: the embedded database serves one process on one host; use PostgreSQL");
  if (!config.HUB_GATEWAY_SECRET)
    fail("HUB_GATEWAY_SECRET is unset: a random one per start, so no other gateway or hub can join");
  if (!config.REDIS_URL)
    warn("REDIS_URL is unset: limits and lockouts are counted per process, not across replicas");
  if (roles.has("hub") && !config.HUB_DEVNET && !config.HUB_CATALOG_FILE)
    fail("HUB_CATALOG_FILE is unset: the hub needs a catalog without the devnet");
  if (roles.has("hub") && !config.HUB_DEVNET && !config.HUB_PROVIDERS_FILE)
    warn("HUB_PROVIDERS_FILE is unset: no upstream provider, every quote answers EIN0008");
  if (roles.has("dashboard")) {
    if (!config.DASHBOARD_PUBLIC_ORIGIN)
      fail("DASHBOARD_PUBLIC_ORIGIN is unset: set the https origin browsers reach the dashboard at");
    else if (!isHttps(config.DASHBOARD_PUBLIC_ORIGIN))
      fail(
        `DASHBOARD_PUBLIC_ORIGIN=${config.DASHBOARD_PUBLIC_ORIGIN} is not https: session cookies are not Secure and no HSTS is sent`,
      );
  }
  if (roles.has("gateway") || roles.has("dashboard")) {
    if (!config.GATEWAY_PUBLIC_BASE_URL)
      fail("GATEWAY_PUBLIC_BASE_URL is unset: the dashboard and dev.json show the gateway's own listener");
    else if (!isHttps(config.GATEWAY_PUBLIC_BASE_URL))
      fail(
        `GATEWAY_PUBLIC_BASE_URL=${config.GATEWAY_PUBLIC_BASE_URL} is not https: keys would cross in clear`,
      );
  }
  if (roles.has("gateway")) {
    const proxies = config.GATEWAY_TRUSTED_PROXIES;
    if (proxies?.some((cidr) => cidr.endsWith("/0")))
      fail(
        `GATEWAY_TRUSTED_PROXIES=${proxies.join(",")} trusts every address: any caller can choose its own X-Forwarded-For`,
      );
    else if (!proxies)
      warn(
        "GATEWAY_TRUSTED_PROXIES is unset: behind a reverse proxy every caller counts as the proxy's address",
      );
    if (!isLoopbackHost(config.GATEWAY_HOST) && !proxies)
      warn(`GATEWAY_HOST=${config.GATEWAY_HOST} takes calls directly: TLS must end in front of it`);
  }
  if (config.HUB_UNSIGNED_OPEN_FLOW_REGISTRATION)
    warn("HUB_UNSIGNED_OPEN_FLOW_REGISTRATION=1 admits unsigned open-flow registrations");
  if (config.LOG_LEVEL === "debug" || config.LOG_LEVEL === "trace")
    warn(`LOG_LEVEL=${config.LOG_LEVEL} logs every call's details`);

  const dataDir = resolve(config.HUB_DATA_DIR);
  try {
    await mkdir(dataDir, { recursive: true, mode: 0o700 });
    await access(dataDir, constants.W_OK);
    const probe = join(dataDir, `.doctor-${process.pid}`);
    await writeFile(probe, "");
    await rm(probe);
  } catch (error) {
    fail(`HUB_DATA_DIR=${dataDir} is not writable (${(error as NodeJS.ErrnoException).code ?? "error"})`);
  }
  return findings;
}

/** The findings as text, one line each, failures first; a line saying so when there is none. */
export function formatFindings(findings: readonly SettingFinding[]): string {
  if (findings.length === 0) return "settings: nothing wrong for production";
  const sorted = [...findings].sort((a, b) =>
    a.severity === b.severity ? 0 : a.severity === "fail" ? -1 : 1,
  );
  const failures = findings.filter((finding) => finding.severity === "fail").length;
  return [
    `settings: ${failures} problem${failures === 1 ? "" : "s"}, ${findings.length - failures} to look at`,
    ...sorted.map((finding) => `  ${finding.severity === "fail" ? "FAIL" : "warn"}  ${finding.message}`),
  ].join("\n");
}
