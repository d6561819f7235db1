import type { AuditLogPage } from "@hub/admin";

/** `hub admin audit list` as lines, newest first. */
export function formatAuditLog(page: AuditLogPage): string {
  if (page.entries.length === 0) return "no audit entries";
  const lines = page.entries.map(
    (entry) =>
      `${entry.id}  ${entry.at}  ${entry.source.padEnd(9)}  ${entry.actor}  ${entry.action}  ${entry.orgId ?? "-"}  ${entry.target ?? "-"}  ${JSON.stringify(entry.detail)}`,
  );
  if (page.next) lines.push(`more: hub admin audit list --after ${page.next}`);
  return lines.join("\n");
}
