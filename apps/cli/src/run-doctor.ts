import type { ReadinessReport as Report } from "@hub/hub-app";

/** Where the verb writes (run-cli's CliIo). */
interface DoctorIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

function isReport(value: unknown): value is Report {
  const report = value as Partial<Report> | null;
  return typeof report?.status === "string" && Array.isArray(report.checks) && Array.isArray(report.notReady);
}

/** The report as text: one summary line, then one line per check. */
export function formatReadiness(report: Report): string {
  const width = Math.max(0, ...report.checks.map((check) => check.name.length));
  const summary =
    report.status === "ready"
      ? "ready"
      : report.status === "degraded"
        ? `ready, degraded: ${(report.degraded ?? []).join(", ")}`
        : report.status === "stopping"
          ? "stopping"
          : `not ready: ${report.notReady.join(", ")}`;
  const lines = report.checks.map(
    (check) =>
      `  ${check.ready ? "ok  " : "FAIL"}  ${check.name.padEnd(width)}  ${String(check.ms).padStart(5)} ms${check.detail ? `  ${check.detail}` : ""}`,
  );
  return [summary, ...lines].join("\n");
}

/**
 * `hub doctor`: reads GET /readyz of the running stack's operator listener and prints it; 0 when
 * ready, 1 when not ready, stopping or unreachable.
 */
export async function runDoctor(operatorUrl: string, json: boolean, io: DoctorIo): Promise<number> {
  const url = `${operatorUrl.replace(/\/+$/, "")}/readyz`;
  let report: unknown;
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(10_000) });
    report = await response.json();
  } catch (error) {
    const message = `no stack answers at ${url}: ${(error as Error).message}`;
    if (json) io.stdout(`${JSON.stringify({ error: { code: "unreachable", message } })}\n`);
    else io.stderr(`hub: ${message}\n`);
    return 1;
  }
  if (!isReport(report)) {
    const message = `${url} did not answer a readiness report`;
    if (json) io.stdout(`${JSON.stringify({ error: { code: "unreachable", message } })}\n`);
    else io.stderr(`hub: ${message}\n`);
    return 1;
  }
  io.stdout(json ? `${JSON.stringify(report)}\n` : `${formatReadiness(report)}\n`);
  return report.status === "ready" || report.status === "degraded" ? 0 : 1;
}
