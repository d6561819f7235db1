import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { createRetentionStore, createTestDatabases, type TestDatabase } from "@hub/store";
import { pino } from "pino";
import { parseHubConfig } from "../src/config.js";
import { createReconciler, type Reconciler } from "../src/reconciler/create-reconciler.js";
import { createRetentionJob } from "../src/retention/create-retention-job.js";
import { manualClock } from "./hub-fixture.js";
import { retentionRows } from "./store/retention-rows.js";

const databases = createTestDatabases({ databaseUrl: process.env.DATABASE_URL });
after(() => databases.dispose());

const DAY_MS = 24 * 3_600_000;
const ORG = "org_RetentionRetentionRetent";
const ACCOUNT = "acct_RetentionRetentionRetent";
const hex = (n: number) => n.toString(16).padStart(64, "0");

for (const { driver, skip } of databases.drivers) {
  describe(`the retention job on ${driver}`, { skip }, () => {
    let db: TestDatabase;
    const clock = manualClock();
    const reconcilers: Reconciler[] = [];
    before(async () => {
      db = await databases.open(driver);
    });
    after(async () => {
      for (const reconciler of reconcilers) await reconciler.stop();
      await db?.dispose();
    });

    const at = (offsetMs: number) => new Date(clock.now() + offsetMs).toISOString();

    test("the defaults: ended sessions 1 day, expired invitations 7, usage minutes 35, audit entries 400", () => {
      assert.deepEqual(parseHubConfig({ gatewayCredential: "g".repeat(32) }).retention, {
        expiredSessionsMs: DAY_MS,
        expiredInvitesMs: 7 * DAY_MS,
        usageMinutesMs: 35 * DAY_MS,
        auditMs: 400 * DAY_MS,
      });
    });

    test("the reconciler's leader deletes rows past retention, a batch at a time, and keeps the rest", async () => {
      const sql = db.sql;
      const rows = retentionRows(sql);
      await rows.organization(ORG, at(-500 * DAY_MS));
      await rows.account(ACCOUNT, ORG, at(-500 * DAY_MS));
      const session = (n: number, createdAt: number, lastSeen: number, expires: number) =>
        rows.session(hex(n), ACCOUNT, at(createdAt), at(lastSeen), at(expires));
      // Past: ended 2 days ago (absolute), last seen 3 days ago, ended 25 hours ago.
      await session(1, -3 * DAY_MS, -2.5 * DAY_MS, -2 * DAY_MS);
      await session(2, -3.1 * DAY_MS, -3 * DAY_MS, 5 * DAY_MS);
      await session(3, -2 * DAY_MS, -25 * 3_600_000, -25 * 3_600_000);
      // Kept: live, and ended 23 hours ago (within the day).
      await session(4, -3_600_000, -60_000, 11 * 3_600_000);
      await session(5, -30 * 3_600_000, -23 * 3_600_000, -23 * 3_600_000);
      const invite = (n: number, expires: number, used: boolean) =>
        rows.invite(
          hex(100 + n),
          ACCOUNT,
          at(expires - DAY_MS),
          at(expires),
          used ? at(expires - 3_600_000) : null,
        );
      await invite(1, -8 * DAY_MS, true);
      await invite(2, -8 * DAY_MS, false);
      await invite(3, -6 * DAY_MS, true);
      await invite(4, 3_600_000, false);
      const minute = (offset: number) => rows.usageMinute(ORG, at(offset));
      for (let i = 0; i < 5; i++) await minute(-36 * DAY_MS - i * 60_000);
      await minute(-34 * DAY_MS);
      await minute(-60_000);
      const keyDay = (offset: number, routeKind: string) =>
        rows.keyUsageDay(ORG, "key_RetentionRetentionRetent", at(offset).slice(0, 10), routeKind);
      for (const kind of ["quote", "order", "status"]) await keyDay(-36 * DAY_MS, kind);
      await keyDay(-34 * DAY_MS, "quote");
      const audit = (offset: number) => rows.audit(ORG, at(offset));
      await audit(-401 * DAY_MS);
      await audit(-399 * DAY_MS);

      const job = createRetentionJob({
        store: createRetentionStore(sql),
        periods: parseHubConfig({ gatewayCredential: "g".repeat(32) }).retention,
        clock,
        logger: pino({ level: "silent" }),
        batchSize: 2,
      });
      const runs: unknown[] = [];
      const startReconciler = (instanceId: string) => {
        const reconciler = createReconciler({
          sql,
          chains: [],
          clock,
          logger: pino({ level: "silent" }),
          instanceId,
          onLeaderTick: async () => runs.push(await job.runIfDue()),
        });
        reconcilers.push(reconciler);
        return reconciler;
      };
      const leader = startReconciler("rec_retention_leader");
      const follower = startReconciler("rec_retention_follower");
      assert.equal((await leader.tick()).leader, true);
      assert.deepEqual(
        runs,
        [{ sessions: 2, invites: 2, usageMinutes: 2, keyUsageDays: 2, audit: 1 }],
        "one batch of each",
      );
      assert.equal((await follower.tick()).leader, false);
      assert.equal(runs.length, 1, "only the leader runs the job");
      await leader.tick();
      assert.deepEqual(
        runs[1],
        { sessions: 1, invites: 0, usageMinutes: 2, keyUsageDays: 1, audit: 0 },
        "a full batch runs again at once",
      );
      await leader.tick();
      assert.deepEqual(runs[2], { sessions: 0, invites: 0, usageMinutes: 1, keyUsageDays: 0, audit: 0 });
      await leader.tick();
      assert.equal(runs[3], undefined, "nothing left: the next run waits for its interval");

      assert.deepEqual(await rows.tokenHashes("dashboard_sessions"), [hex(4), hex(5)]);
      assert.deepEqual(await rows.tokenHashes("dashboard_invites"), [hex(103), hex(104)]);
      assert.equal(await rows.count("usage_minutes"), 2);
      assert.equal(await rows.count("api_key_usage_days"), 1);
      assert.equal(await rows.count("audit_log"), 1);
      assert.equal(await rows.count("dashboard_accounts"), 1, "accounts are never deleted by retention");

      clock.advance(2 * 3_600_000);
      await leader.tick();
      assert.deepEqual(
        runs.at(-1),
        { sessions: 1, invites: 0, usageMinutes: 0, keyUsageDays: 0, audit: 0 },
        "session 5 passed its day",
      );
    });
  });
}
