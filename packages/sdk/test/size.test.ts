import assert from "node:assert/strict";
import { test } from "node:test";
import { CORE_BUDGET_GZIP, ENTRIES, measure } from "../scripts/size.js";

test("the core entry holds no wallet code and stays under its gzipped budget; every subpath is measured", async () => {
  const sizes = await measure();
  assert.deepEqual(
    sizes.map((s) => s.entry),
    Object.keys(ENTRIES),
  );
  const core = sizes.find((s) => s.entry === ".")!;
  assert.ok(
    core.gzipped < CORE_BUDGET_GZIP,
    `the core is ${core.gzipped} bytes gzipped, the budget ${CORE_BUDGET_GZIP}`,
  );
  const walletModules = core.inputs.filter((file) => /src\/(viem|solana|wallet-standard)\.ts$/.test(file));
  assert.deepEqual(walletModules, [], "no wallet adapter in the core");
  for (const { entry, minified, gzipped } of sizes) {
    assert.ok(minified > 0 && gzipped > 0 && gzipped < minified, entry);
  }
  // The adapters are small on top of what they share with the core (their peers stay external).
  for (const entry of ["./viem", "./solana", "./wallet-standard"]) {
    assert.ok(sizes.find((s) => s.entry === entry)!.gzipped < CORE_BUDGET_GZIP, entry);
  }
});
