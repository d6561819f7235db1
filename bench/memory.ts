// Memory: the quote hub's RSS idle and after each batch of 10,000 quotes (64 concurrent;
// BENCH_MEMORY_BATCHES, 2 by default), each after a full GC: batches after the first that add nothing
// show the first one's growth is a bounded cache.
// The quotes benchmark's set-up (bench/quotes.ts): devnet-recorded answers, two canned providers in a
// child process, PGlite. `npm run bench -- memory`.
import { run as runQuotes } from "./quotes.js";

export function run(): Promise<object> {
  return runQuotes({ memoryRounds: 10_000 });
}
