/** At most `max` holders at once; the others wait in line, first come first served. */
export interface InFlightBound {
  acquire(): Promise<void>;
  release(): void;
  active(): number;
}

export function createInFlightBound(max: number): InFlightBound {
  let active = 0;
  const waiting: (() => void)[] = [];
  return {
    async acquire() {
      if (active < max) {
        active += 1;
        return;
      }
      await new Promise<void>((resolve) => waiting.push(resolve));
    },
    release() {
      const next = waiting.shift();
      if (next) next();
      else active -= 1;
    },
    active: () => active,
  };
}
