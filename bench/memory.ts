// Memory: the quote hub's RSS idle, after the first 1,000 quotes and after each batch of 10,000 quotes
// (64 concurrent; BENCH_MEMORY_BATCHES, 2 by default), each after a full GC: batches after the first
// that add nothing show the first one's growth is a bounded cache. The goal (`ratio`, at most 1.1): RSS
// after the first 10,000 and a GC against RSS after the first 1,000 and a GC, each GC a last-resort one
// that also returns the free pages V8 keeps after a plain one.
// The quotes benchmark's set-up (bench/quotes.ts): devnet-recorded answers, two canned providers in a
// child process, PGlite. `npm run bench -- memory`.
import { run as runQuotes } from "./quotes.js";

export function run(): Promise<object> {
  return runQuotes({ memoryRounds: 10_000 });
}
