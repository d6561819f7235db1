import assert from "node:assert/strict";
import { test } from "node:test";
import { privateServersMissing, startPrivatePostgres } from "@hub/test-support";
import { createPostgresClient, isStoreUnreachable } from "../src/index.js";

test("a stopped server reads as unreachable, a bad statement does not, and the pool reconnects once it is back", {
  skip: privateServersMissing(),
}, async () => {
  const server = await startPrivatePostgres();
  const sql = createPostgresClient({ connectionString: server.url, maxConnections: 1 });
  try {
    const wrong = await sql.query("SELECT * FROM no_such_table").catch((error: unknown) => error);
    assert.equal(isStoreUnreachable(wrong), false, "a statement error is the caller's fault");
    assert.equal(isStoreUnreachable(new Error("boom")), false);
    await server.stop();
    const refused = await sql.query("SELECT 1").catch((error: unknown) => error);
    assert.equal(isStoreUnreachable(refused), true, `a stopped server: ${String(refused)}`);
    await server.start();
    assert.deepEqual(await sql.query("SELECT 1 AS one"), [{ one: 1 }], "the pool reconnects by itself");
  } finally {
    await sql.close();
    await server.close();
  }
});
