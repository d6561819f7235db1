import type { Logger } from "pino";

export interface PollLoopConfig {
  name: string;
  intervalMs: number;
  logger: Logger;
}

export interface PollLoop {
  start(): void;
  /** Runs a tick soon instead of waiting out the interval (a knob changed, a test wants progress). */
  wake(): void;
  /** Stops scheduling and waits for a tick in flight to end. */
  stop(): Promise<void>;
}

/** Runs `tick` every `intervalMs`, never two at once; a failing tick is logged and the loop goes on. */
export function createPollLoop(config: PollLoopConfig, tick: () => Promise<void>): PollLoop {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let stopped = true;
  let again = false;

  function schedule(delayMs: number): void {
    if (stopped) return;
    clearTimeout(timer);
    timer = setTimeout(run, delayMs);
  }

  function run(): void {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = tick()
      .catch((error: unknown) => config.logger.warn({ err: error, loop: config.name }, "poll tick failed"))
      .finally(() => {
        running = undefined;
        const soon = again;
        again = false;
        schedule(soon ? 0 : config.intervalMs);
      });
  }

  return {
    start() {
      if (!stopped) return;
      stopped = false;
      schedule(0);
    },
    wake() {
      schedule(0);
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
