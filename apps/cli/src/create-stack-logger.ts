import { redactUrlsInText } from "@hub/http-client";
import { type Logger, type LoggerOptions, pino, stdSerializers } from "pino";
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
  const logger = pino(stackLoggerOptions(config.LOG_LEVEL), destination);
  return { logger, format };
}

/**
 * The logger's options: URLs with keys or passwords (an RPC URL's /v2/<key>, a database URL's
 * user:password) are never written whole, neither in a message nor in an error (viem's errors carry the
 * URL they called).
 */
export function stackLoggerOptions(level: string): LoggerOptions {
  return {
    level,
    hooks: {
      logMethod(args, method) {
        method.apply(
          this,
          args.map((arg) => (typeof arg === "string" ? redactUrlsInText(arg) : arg)) as typeof args,
        );
      },
    },
    serializers: { err: (error: Error) => redactStrings(stdSerializers.err(error), 4) },
  };
}

/** A copy of value with every string in it, down to depth, passed through redactUrlsInText. */
function redactStrings<T>(value: T, depth: number): T {
  if (typeof value === "string") return redactUrlsInText(value) as T;
  if (depth === 0 || typeof value !== "object" || value === null) return value;
  if (Array.isArray(value)) return value.map((item) => redactStrings(item, depth - 1)) as T;
  const copy: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(value)) copy[name] = redactStrings(field, depth - 1);
  return copy as T;
}
