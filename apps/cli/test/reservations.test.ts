import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { after, describe, test } from "node:test";
import { createAdmin } from "@hub/admin";
import { createReservationBook } from "@hub/hub-app";
import { readUpstreamView, seedReservation } from "@hub/hub-app/test-store/submission-rows";
import { createTestDatabases, openStore } from "@hub/store";
import { pino } from "pino";
import { startAdminChannel } from "../src/admin-channel.js";
import { parseCommand } from "../src/parse-command.js";
import { runCli } from "../src/run-cli.js";

const databases = createTestDatabases({ databaseUrl: process.env.DATABASE_URL });
after(() => databases.dispose());

async function cli(args: string[], target: { dataDir: string; databaseUrl?: string | undefined }) {
  let stdout = "";
  let stderr = "";
  const code = await runCli(
    args,
    { dataDir: target.dataDir, ...(target.databaseUrl ? { databaseUrl: target.databaseUrl } : {}) },
    { stdout: (text) => (stdout += text), stderr: (text) => (stderr += text) },
  );
  // biome-ignore lint/suspicious/noExplicitAny: the tests read the CLI output as loose JSON
  const json = (): Record<string, any> => JSON.parse(stdout);
  return { code, stdout, stderr, json };
}

describe("hub admin reservations: arguments", () => {
  test("reconcile takes exactly one of --opened and --not-opened (exit 2 otherwise)", async () => {
    assert.deepEqual(
      parseCommand(["admin", "reservations", "reconcile", "abc", "--not-opened", "--note", "n"]),
      {
        kind: "admin",
        request: { verb: "reservations.reconcile", hubOrderId: "abc", opened: null, note: "n" },
        json: false,
      },
    );
    const both = await cli(
      ["admin", "reservations", "reconcile", "abc", "--opened", `0x${"1".repeat(64)}`, "--not-opened"],
      { dataDir: "/nonexistent" },
    );
    assert.equal(both.code, 2);
    assert.equal(
      (await cli(["admin", "reservations", "reconcile", "abc"], { dataDir: "/nonexistent" })).code,
      2,
    );
    assert.equal(
      (await cli(["admin", "reservations", "list", "--state", "lost"], { dataDir: "/nonexistent" })).code,
      2,
    );
  });
});

for (const { driver, skip } of databases.drivers) {
  describe(`hub admin reservations straight on the database (${driver})`, { skip }, () => {
    test("list shows the unknown reservation; reconcile --not-opened releases it; a second reconcile is refused (exit 1)", async (t) => {
      const target = await databases.prepareDataDir(driver);
      t.after(() => target.dispose());
      const orgId = `org_${randomBytes(6).toString("hex")}`;
      const store = await openStore({
        dataDir: target.dataDir,
        ...(target.databaseUrl ? { databaseUrl: target.databaseUrl } : {}),
      });
      const unknown = await seedReservation(store.sql, { orgId, state: "unknown" });
      const acked = await seedReservation(store.sql, { orgId, state: "acked" });
      await store.close();

      const listed = await cli(
        ["admin", "reservations", "list", "--org", orgId, "--state", "unknown", "--json"],
        target,
      );
      assert.equal(listed.code, 0, listed.stderr);
      assert.deepEqual(
        listed.json().reservations.map((r: { hubOrderId: string; state: string }) => [r.hubOrderId, r.state]),
        [[unknown, "unknown"]],
      );
      const done = await cli(
        [
          "admin",
          "reservations",
          "reconcile",
          unknown,
          "--not-opened",
          "--note",
          "no Open on chain",
          "--json",
        ],
        target,
      );
      assert.equal(done.code, 0, done.stdout + done.stderr);
      assert.equal(done.json().reservation.state, "released");
      assert.equal(done.json().reservation.reconciledNote, "no Open on chain");
      const again = await cli(
        ["admin", "reservations", "reconcile", unknown, "--not-opened", "--json"],
        target,
      );
      assert.equal(again.code, 1);
      assert.equal(again.json().error.code, "reservation-not-pending");
      const ackedRefused = await cli(["admin", "reservations", "reconcile", acked, "--not-opened"], target);
      assert.equal(ackedRefused.code, 1);
      assert.match(ackedRefused.stderr, /is acked: only a forwarding or unknown reservation is reconciled/);
    });
  });
}

describe("hub admin reservations through a running service's admin channel (embedded database)", () => {
  test("reconcile --opened acks a forwarding reservation with that on-chain id and writes its first upstream view", async (t) => {
    const target = await databases.prepareDataDir("pglite");
    const store = await openStore({ dataDir: target.dataDir });
    const channel = await startAdminChannel({
      admin: createAdmin({ store: store.access, reservations: createReservationBook(store.sql) }),
      dataDir: target.dataDir,
      logger: pino({ level: "silent" }),
    });
    t.after(async () => {
      await channel.stop();
      await store.close();
      await target.dispose();
    });
    const orgId = `org_${randomBytes(6).toString("hex")}`;
    const forwarding = await seedReservation(store.sql, { orgId, state: "forwarding" });
    const onchainOrderId = `0x${randomBytes(32).toString("hex")}`;
    const done = await cli(
      [
        "admin",
        "reservations",
        "reconcile",
        forwarding,
        "--opened",
        onchainOrderId.toUpperCase().replace("0X", "0x"),
        "--json",
      ],
      target,
    );
    assert.equal(done.code, 0, done.stdout + done.stderr);
    const reservation = done.json().reservation;
    assert.equal(reservation.state, "acked");
    assert.equal(reservation.onchainOrderId, onchainOrderId);
    assert.equal(done.json().chain, null, "no chain facts recorded for it");
    const view = (await readUpstreamView(store.sql, forwarding)) as { state: string };
    assert.equal(view.state, "created");
    const listed = await cli(["admin", "reservations", "list", "--org", orgId], target);
    assert.equal(listed.code, 0, listed.stderr);
    assert.match(listed.stdout, new RegExp(`^${forwarding}  acked`));
  });
});
