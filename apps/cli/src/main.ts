import { readFileSync } from "node:fs";
import { join } from "node:path";
import { listenerUrl } from "./listener-url.js";
import { runCli } from "./run-cli.js";
import { readSecretFiles } from "./secret-files.js";

interface StartCommand {
  runStart(argv: string[]): Promise<void>;
}

const argv = process.argv.slice(2);
if (argv[0] === "start") {
  // Loaded only for `hub start`, so the admin verbs never load the whole stack.
  const specifier = "./start-command.js";
  const { runStart } = (await import(specifier)) as StartCommand;
  await runStart(argv.slice(1));
} else {
  const secrets = readSecretFiles(process.env);
  if (secrets.problems.length > 0) {
    process.stderr.write(`hub: ${secrets.problems.join("; ")}\n`);
    process.exit(2);
  }
  const databaseUrl = secrets.env.DATABASE_URL;
  const dataDir = process.env.HUB_DATA_DIR || ".data";
  process.exitCode = await runCli(
    argv,
    {
      dataDir,
      ...(databaseUrl ? { databaseUrl } : {}),
      dashboardUrl: dashboardUrl(dataDir),
      env: process.env,
      operatorUrl: listenerUrl(
        process.env.METRICS_HOST || "127.0.0.1",
        Number(process.env.METRICS_PORT || 9090),
      ),
    },
    {
      stdout: (text) => process.stdout.write(text),
      stderr: (text) => process.stderr.write(text),
    },
  );
}

/** The configured public origin, else the running stack's dashboardUrl (dev.json), else DASHBOARD_PORT. */
function dashboardUrl(dataDir: string): string {
  if (process.env.DASHBOARD_PUBLIC_ORIGIN) return process.env.DASHBOARD_PUBLIC_ORIGIN.replace(/\/$/, "");
  try {
    const dev = JSON.parse(readFileSync(join(dataDir, "dev.json"), "utf8")) as { dashboardUrl?: unknown };
    if (typeof dev.dashboardUrl === "string") return dev.dashboardUrl;
  } catch {
    // No running stack has written its URLs.
  }
  return listenerUrl(process.env.DASHBOARD_HOST || "127.0.0.1", Number(process.env.DASHBOARD_PORT || 8081));
}
