// The quotes table's insert on PGlite alone: process CPU per row, one quote at a time and 16 together (one
// grouped statement), or the group sizes listed in BENCH_GROUPS (e.g. 1,16,32,64), on a row recorded from
// a devnet round (bench/quote-insert-row.json: 3.2 KB winner, 4.2 KB template).
// With BENCH_VARIANT_SQL, a second database with that statement applied is measured in alternate passes:
//   BENCH_VARIANT_SQL="ALTER TABLE quotes SET (toast_tuple_target = 8160)" node --import tsx bench/quote-insert.ts
// A helper for profiling (BENCH_CPU_PROFILE_DIR works), not listed by `npm run bench` (dash in its name).
import { readFileSync } from "node:fs";
import { loadavg } from "node:os";
import { createTestDatabases } from "@hub/store";
import { createQuoteStore, type NewQuote, type QuoteStore } from "../apps/hub/src/store/quote-store.js";
import { profiled } from "./cpu-profile.js";

const recorded = JSON.parse(readFileSync(new URL("quote-insert-row.json", import.meta.url), "utf8"));
const ROWS = Number(process.env.BENCH_ROWS ?? 3000);
const PASSES = Number(process.env.BENCH_PASSES ?? 4);
const GROUPS = (process.env.BENCH_GROUPS ?? "1,16").split(",").map(Number);

let counter = 0;
function nextQuote(): NewQuote {
  counter += 1;
  return {
    ...recorded,
    quoteId: `q_insert_${counter}`,
    issuedAt: new Date(recorded.issuedAt),
    expiresAt: new Date(recorded.expiresAt),
    registrableUntil: new Date(recorded.registrableUntil),
  };
}

async function insertRows(store: QuoteStore, together: number): Promise<void> {
  for (let i = 0; i < ROWS; i += together) {
    await Promise.all(Array.from({ length: together }, () => store.insert(nextQuote())));
  }
}

const databases = createTestDatabases({ databaseUrl: undefined });
const variantSql = process.env.BENCH_VARIANT_SQL;
const subjects: { label: string; dispose: () => Promise<void>; store: QuoteStore }[] = [];
for (const label of variantSql ? ["schema", "variant"] : ["schema"]) {
  const db = await databases.open("pglite");
  if (label === "variant") await db.sql.exec(variantSql!);
  subjects.push({ label, dispose: () => db.dispose(), store: createQuoteStore(db.sql) });
}
try {
  const msPerRow: Record<string, number[]> = {};
  for (const together of GROUPS) {
    for (const { store } of subjects) await insertRows(store, together);
    for (let pass = 0; pass < PASSES; pass += 1) {
      for (const { label, store } of subjects) {
        const before = process.cpuUsage();
        await profiled(`quote-insert-${together}-${label}-${pass}`, () => insertRows(store, together));
        const used = process.cpuUsage(before);
        const key = `${label}, ${together} at a time`;
        msPerRow[key] = [...(msPerRow[key] ?? []), Math.round((used.user + used.system) / ROWS) / 1000];
      }
    }
  }
  console.log(
    JSON.stringify({ rowsPerPass: ROWS, variantSql, loadAverage1m: loadavg()[0], msPerRow }, null, 2),
  );
} finally {
  for (const { dispose } of subjects) await dispose();
  await databases.dispose();
}
