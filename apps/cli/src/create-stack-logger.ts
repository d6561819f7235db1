import { type Logger, pino } from "pino";
import pretty from "pino-pretty";
import type { StackConfig } from "./stack-config.js";

export type LogFormat = "json" | "pretty";

/**
 * The stack's one logger, writing synchronously to stdout: JSON lines, or pino-pretty's readable lines
 * (in this thread, not a worker), so a line written before another is printed before it.
 */
export function createStackLogger(
  config: Pick<StackConfig, "LOG_LEVEL" | "LOG_FORMAT">,
  stdout: { isTTY?: boolean } = process.stdout,
): { logger: Logger; format: LogFormat } {
  const terminal = stdout.isTTY === true;
  const format = config.LOG_FORMAT ?? (terminal ? "pretty" : "json");
  const destination =
    format === "pretty"
      ? pretty({
          destination: 1,
          sync: true,
          colorize: terminal,
          translateTime: "SYS:HH:MM:ss.l",
          ignore: "pid,hostname,part",
          messageFormat: "{if part}{part}: {end}{msg}",
          singleLine: true,
        })
      : pino.destination({ dest: 1, sync: true });
  return { logger: pino({ level: config.LOG_LEVEL }, destination), format };
}
