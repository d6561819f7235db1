import { isIP } from "node:net";
import type { StackConfig } from "./stack-config.js";

/** The parts of the stack one `hub start` process can run. */
export const stackRoles = ["gateway", "hub", "dashboard"] as const;
export type StackRole = (typeof stackRoles)[number];

/** `--only gateway,hub,...`: the roles named (each once), or every role without the option. */
export function parseRoles(only: string | undefined): Set<StackRole> {
  if (only === undefined) return new Set(stackRoles);
  const names = only.split(",").map((name) => name.trim());
  const unknown = names.filter((name) => !(stackRoles as readonly string[]).includes(name));
  if (names.length === 0 || unknown.length > 0)
    throw new Error(`--only takes a comma-separated list of ${stackRoles.join(", ")}; got ${only}`);
  return new Set(names as StackRole[]);
}

/** Reachable only from this machine: 127.0.0.0/8, ::1 and `localhost`. */
export function isLoopbackHost(host: string): boolean {
  if (host === "localhost") return true;
  if (isIP(host) === 4) return host.startsWith("127.");
  if (isIP(host) === 6) return /^(0*:)*:?0*1$/.test(host) || host === "::1";
  return false;
}

/**
 * Why these settings may not start: a listener reachable from elsewhere without authentication, or a
 * split that cannot work. One line each; empty when the start may go ahead.
 */
export function unsafeSettings(config: StackConfig, roles: ReadonlySet<StackRole>): string[] {
  const problems: string[] = [];
  const split = roles.size < stackRoles.length;
  const apart = roles.has("hub") !== roles.has("gateway");
  if (roles.has("hub") && !isLoopbackHost(config.HUB_HOST) && !config.HUB_GATEWAY_SECRET)
    problems.push(
      `HUB_HOST=${config.HUB_HOST} lets other machines reach the hub: set HUB_GATEWAY_SECRET (32 or more characters, the same on every gateway)`,
    );
  else if (apart && !config.HUB_GATEWAY_SECRET)
    problems.push(
      `--only ${[...roles].join(",")} runs the gateway and the hub apart: set HUB_GATEWAY_SECRET (32 or more characters), the same in both`,
    );
  if (!isLoopbackHost(config.METRICS_HOST) && !config.METRICS_ALLOW_REMOTE)
    problems.push(
      `METRICS_HOST=${config.METRICS_HOST} exposes the operator listener, which has no authentication: bind it to loopback, or set METRICS_ALLOW_REMOTE=1 on a private network`,
    );
  if (split && config.HUB_DEVNET)
    problems.push(
      "--only runs part of the stack: set HUB_DEVNET=0 (the devnet runs with the whole stack only)",
    );
  if (split && !config.DATABASE_URL)
    problems.push(
      "--only runs part of the stack: set DATABASE_URL (the embedded database has one opener, so the parts cannot share it)",
    );
  return problems;
}
