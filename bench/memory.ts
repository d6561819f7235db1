// Memory: the quote hub's RSS idle, after 10,000 quotes and after 10,000 more (64 concurrent), each
// after a full GC: a second batch that adds nothing shows the first one's growth is a bounded cache.
// The quotes benchmark's set-up (bench/quotes.ts): devnet-recorded answers, two canned providers in a
// child process, PGlite. `npm run bench -- memory`.
import { run as runQuotes } from "./quotes.js";

export function run(): Promise<object> {
  return runQuotes({ memoryRounds: 10_000 });
}
