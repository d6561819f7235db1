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

/** Runs `tick` every `intervalMs`, never two at once; a failing tick is logged (once per distinct failure) and the loop goes on. */
export function createPollLoop(config: PollLoopConfig, tick: () => Promise<void>): PollLoop {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let stopped = true;
  let again = false;
  let lastFailure: string | undefined;

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
      .then(() => {
        if (lastFailure !== undefined) config.logger.info({ loop: config.name }, "poll tick recovered");
        lastFailure = undefined;
      })
      .catch((error: unknown) => {
        // A dead node fails every tick; say so once per distinct failure, not ten times a second.
        const failure = error instanceof Error ? error.message : String(error);
        if (failure !== lastFailure)
          config.logger.warn({ err: error, loop: config.name }, "poll tick failed");
        lastFailure = failure;
      })
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
