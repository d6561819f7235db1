import { runCli } from "./run-cli.js";

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
  const databaseUrl = process.env.DATABASE_URL;
  process.exitCode = await runCli(
    argv,
    {
      dataDir: process.env.HUB_DATA_DIR || ".data",
      ...(databaseUrl ? { databaseUrl } : {}),
    },
    {
      stdout: (text) => process.stdout.write(text),
      stderr: (text) => process.stderr.write(text),
    },
  );
}
