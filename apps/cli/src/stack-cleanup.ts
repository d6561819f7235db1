import type { Logger } from "pino";

/** What undoes a start: each part started pushes its stop; one stop runs them in reverse order. */
export interface StackCleanup {
  push(step: () => Promise<void>): void;
  /** Runs every step pushed so far, last first; a step that fails is logged and the rest still run. */
  stop(): Promise<void>;
}

export function createStackCleanup(logger: Logger): StackCleanup {
  const steps: Array<() => Promise<void>> = [];
  return {
    push(step) {
      steps.push(step);
    },
    async stop() {
      for (const step of steps.splice(0).reverse()) {
        try {
          await step();
        } catch (error) {
          logger.error({ err: error }, "a part of the stack did not stop cleanly");
        }
      }
    },
  };
}
