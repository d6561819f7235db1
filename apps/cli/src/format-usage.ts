import type { OrganizationUsage } from "@hub/admin";

/** `hub admin usage` as a table: one line per hour, then the totals. */
export function formatUsage(usage: OrganizationUsage): string {
  const codes = Object.keys(usage.totals.refusals).sort();
  const refusals = (counts: Record<string, number>) =>
    codes
      .filter((code) => (counts[code] ?? 0) > 0)
      .map((code) => `${code}=${counts[code]}`)
      .join(" ") || "-";
  const row = (label: string, hour: OrganizationUsage["totals"]) =>
    `${label.padEnd(17)}  ${String(hour.requests.apiKey).padStart(8)}  ${String(hour.requests.projectId).padStart(10)}  ${String(hour.lockouts).padStart(8)}  ${refusals(hour.refusals)}`;
  return [
    `usage of ${usage.orgId}, ${usage.from} to ${usage.to} (UTC hours)`,
    `${"hour".padEnd(17)}  ${"api key".padStart(8)}  ${"project id".padStart(10)}  ${"lockouts".padStart(8)}  refusals by code`,
    ...usage.hours.map((hour) => row(hour.hour.slice(0, 16), hour)),
    row("total", usage.totals),
  ].join("\n");
}
