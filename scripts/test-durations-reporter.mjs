// A second reporter beside `spec`: at the end of a run, the test files that took longest (the sum of
// each file's top-level tests, which run one after another), so a slow suite is seen before it
// pushes the run past its budget. Plain JavaScript: node loads reporters before tsx's hooks apply.

const SHOWN = 12;

/** @param {AsyncIterable<{ type: string, data: { nesting?: number, file?: string, details?: { duration_ms?: number } } }>} source */
export default async function* durations(source) {
  /** @type {Map<string, number>} */
  const perFile = new Map();
  for await (const event of source) {
    if (event.type !== "test:pass" && event.type !== "test:fail") continue;
    const { nesting, file, details } = event.data;
    if (nesting !== 0 || file === undefined || details?.duration_ms === undefined) continue;
    perFile.set(file, (perFile.get(file) ?? 0) + details.duration_ms);
  }
  const slowest = [...perFile].sort((a, b) => b[1] - a[1]).slice(0, SHOWN);
  if (slowest.length === 0) return;
  const root = new URL("..", import.meta.url).pathname;
  yield `\nslowest test files (their tests' time, ${perFile.size} files):\n`;
  for (const [file, ms] of slowest) {
    const name = file.startsWith(root) ? file.slice(root.length) : file;
    yield `  ${(ms / 1000).toFixed(1).padStart(6)} s  ${name}\n`;
  }
}
