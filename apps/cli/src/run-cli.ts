import { userInfo } from "node:os";
import type { StoreConfig } from "@hub/store";
import {
  AdminChannelNotAuthenticated,
  AdminChannelUnreachable,
  isProcessAlive,
  sendAdminRequest,
} from "./admin-channel-client.js";
import { readAdminChannelFile } from "./admin-channel-file.js";
import type { AdminRequest } from "./admin-request.js";
import type { AdminResult } from "./execute-admin-request.js";
import { formatAdminResult } from "./format-admin-result.js";
import { parseCommand } from "./parse-command.js";
import { UsageError } from "./usage-error.js";

export interface CliConfig {
  dataDir: string;
  databaseUrl?: string;
  /** Where the printed invite links point (`<dashboardUrl>/sign-in/<token>`). */
  dashboardUrl?: string;
  /** The environment `hub doctor --settings` checks. */
  env?: Record<string, string | undefined>;
  /** The running stack's operator listener (`hub doctor` reads its /readyz); default 127.0.0.1:9090. */
  operatorUrl?: string;
}

export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

/** A refusal with the code the JSON output carries and the exit code the process returns. */
class CliFailure extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly exitCode: 1 | 2,
  ) {
    super(message);
  }
}

const ARGUMENT_CODES = new Set(["invalid-argument", "invalid-origin", "invalid-request"]);

function failureFrom(code: string, message: string): CliFailure {
  return new CliFailure(code, message, ARGUMENT_CODES.has(code) ? 2 : 1);
}

// The database driver and the services load only when a command needs them, so --help, bad
// arguments and requests sent to the admin channel start fast.
async function openConfiguredStore(config: CliConfig, purpose: "admin" | "migrate") {
  const { DirectoryInUseError, openStore } = await import("@hub/store");
  const storeConfig: StoreConfig = {
    dataDir: config.dataDir,
    ...(config.databaseUrl ? { databaseUrl: config.databaseUrl } : {}),
  };
  try {
    return await openStore(storeConfig);
  } catch (error) {
    if (error instanceof DirectoryInUseError) {
      throw new CliFailure(
        "database-in-use",
        purpose === "migrate"
          ? `${error.message}; a running service applied the migrations when it started (stop it to run hub migrate)`
          : `${error.message}, and no admin channel of it answers (${config.dataDir}/admin.json); wait until it is ready or stop it`,
        1,
      );
    }
    throw error;
  }
}

async function runLocally(config: CliConfig, request: AdminRequest): Promise<AdminResult> {
  const reservationVerb = request.verb.startsWith("reservations.") || request.verb === "chain.reindex";
  const [{ AdminRefusal, createAdmin }, { executeAdminRequest }, hubApp] = await Promise.all([
    import("@hub/admin"),
    import("./execute-admin-request.js"),
    reservationVerb ? import("@hub/hub-app") : undefined,
  ]);
  const store = await openConfiguredStore(config, "admin");
  try {
    const reservations = hubApp?.createReservationBook(store.sql);
    const chains = hubApp?.createChainFactsStore(store.sql);
    return await executeAdminRequest(
      createAdmin({
        store: store.access,
        accounts: store.dashboard,
        usage: store.usage,
        audit: store.audit,
        actor: { source: "cli", user: userInfo().username },
        ...(reservations ? { reservations } : {}),
        ...(chains ? { chains } : {}),
      }),
      request,
    );
  } catch (error) {
    if (error instanceof AdminRefusal) throw failureFrom(error.code, error.message);
    throw error;
  } finally {
    await store.close();
  }
}

/**
 * With PostgreSQL the CLI connects itself. With the embedded database, a running service holds the
 * PGlite dir, so the request goes to its admin channel; only when no channel answers does the CLI open
 * the dir itself (and the dir's lock refuses if a service still holds it).
 */
async function runAdminRequest(config: CliConfig, request: AdminRequest): Promise<AdminResult> {
  if (config.databaseUrl) return runLocally(config, request);
  const channel = readAdminChannelFile(config.dataDir);
  if (channel && isProcessAlive(channel.pid)) {
    try {
      const { answer } = await sendAdminRequest(channel, request);
      if (answer.ok) return answer.result;
      throw failureFrom(answer.error.code, answer.error.message);
    } catch (error) {
      // Neither was the request executed; an impostor on the port never saw the token.
      if (!(error instanceof AdminChannelUnreachable || error instanceof AdminChannelNotAuthenticated))
        throw error;
    }
  }
  return runLocally(config, request);
}

/** Runs one `hub` command (everything but `start`); resolves to the process exit code. */
export async function runCli(argv: readonly string[], config: CliConfig, io: CliIo): Promise<number> {
  let json = argv.includes("--json");
  const fail = (failure: CliFailure, usage?: string): number => {
    if (json) io.stdout(`${JSON.stringify({ error: { code: failure.code, message: failure.message } })}\n`);
    else io.stderr(`hub: ${failure.message}\n${usage ? `\n${usage}\n` : ""}`);
    return failure.exitCode;
  };
  try {
    const command = parseCommand(argv);
    if (command.kind === "help") {
      io.stdout(`${command.text}\n`);
      return 0;
    }
    json = command.json;
    if (command.kind === "doctor") {
      const { runDoctor } = await import("./run-doctor.js");
      return await runDoctor(command.url ?? config.operatorUrl ?? "http://127.0.0.1:9090", json, io);
    }
    if (command.kind === "doctor-settings") {
      const [{ checkProductionSettings, formatFindings }, { parseRoles }] = await Promise.all([
        import("./check-production-settings.js"),
        import("./stack-roles.js"),
      ]);
      const findings = await checkProductionSettings(config.env ?? {}, parseRoles(command.only));
      io.stdout(json ? `${JSON.stringify({ findings })}\n` : `${formatFindings(findings)}\n`);
      return findings.some((finding) => finding.severity === "fail") ? 1 : 0;
    }
    if (command.kind === "migrate") {
      const store = await openConfiguredStore(config, "migrate");
      await store.close();
      const { applied, current } = store.migrations;
      io.stdout(
        json
          ? `${JSON.stringify({ applied, current })}\n`
          : `${applied.length > 0 ? `applied ${applied.join(", ")}` : "nothing to apply"}; schema version ${current}\n`,
      );
      return 0;
    }
    let result = await runAdminRequest(config, command.request);
    if (command.request.verb === "member.invite" || command.request.verb === "operator.invite") {
      const { token } = result.invite as { token: string };
      result = { ...result, link: `${config.dashboardUrl ?? "http://127.0.0.1:8081"}/sign-in/${token}` };
    }
    io.stdout(json ? `${JSON.stringify(result)}\n` : `${formatAdminResult(command.request, result)}\n`);
    return 0;
  } catch (error) {
    if (error instanceof UsageError) return fail(new CliFailure("usage", error.message, 2), error.usage);
    if (error instanceof CliFailure) return fail(error);
    return fail(new CliFailure("failed", (error as Error).message, 1));
  }
}
