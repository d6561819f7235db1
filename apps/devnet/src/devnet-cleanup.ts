/** The devnet's stop steps, run newest first; every step runs even when one fails. */
export interface DevnetCleanup {
  push(step: () => Promise<void>): void;
  stopAll(): Promise<void>;
}

export function createDevnetCleanup(): DevnetCleanup {
  const cleanup: Array<() => Promise<void>> = [];
  return {
    push: (step) => void cleanup.push(step),
    async stopAll() {
      const errors: unknown[] = [];
      for (const step of cleanup.splice(0).reverse()) {
        try {
          await step();
        } catch (error) {
          errors.push(error);
        }
      }
      if (errors.length > 0) throw new AggregateError(errors, "devnet did not stop cleanly");
    },
  };
}
