import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { after, before, describe, test } from "node:test";
import { type Admin, AdminRefusal, createAdmin } from "@hub/admin";
import { createAccessStore, createAuditStore, createTestDatabases, type TestDatabase } from "@hub/store";
import { createReservationBook } from "../src/index.js";
import { seedReservation } from "./store/submission-rows.js";

const databases = createTestDatabases({ databaseUrl: process.env.DATABASE_URL });
after(() => databases.dispose());

const refusedWith = (code: string) => (error: unknown) =>
  error instanceof AdminRefusal && error.code === code;
const onchainId = () => `0x${randomBytes(32).toString("hex")}`;

for (const { driver, skip } of databases.drivers) {
  describe(`the admin's reservation verbs on the hub's reservations (${driver})`, { skip }, () => {
    let db: TestDatabase;
    let admin: Admin;
    const orgId = `org_${randomBytes(6).toString("hex")}`;
    before(async () => {
      db = await databases.open(driver);
      admin = createAdmin({ store: createAccessStore(db.sql), reservations: createReservationBook(db.sql) });
    });
    after(() => db?.dispose());

    test("only a forwarding or unknown reservation is reconciled; an unknown id is refused by name", async () => {
      const acked = await seedReservation(db.sql, { orgId, state: "acked" });
      await assert.rejects(
        admin.reconcileReservation({ hubOrderId: acked, opened: false }),
        refusedWith("reservation-not-pending"),
      );
      await assert.rejects(
        admin.reconcileReservation({ hubOrderId: `${acked}x`, opened: false }),
        refusedWith("reservation-not-found"),
      );
      const unknown = await seedReservation(db.sql, { orgId, state: "unknown" });
      const released = await admin.reconcileReservation({ hubOrderId: unknown, opened: false, note: "n" });
      assert.equal(released.reservation.state, "released");
      assert.equal(released.reservation.reconciledNote, "n");
      assert.equal(released.chain, null);
      const listed = await admin.listReservations({ orgId, state: "released" });
      assert.deepEqual(
        listed.reservations.map((r) => r.hubOrderId),
        [unknown],
      );
    });

    test("an opened reservation takes a well-formed on-chain id, the quote's recomputed one when it has one", async () => {
      const recomputed = onchainId();
      const forwarding = await seedReservation(db.sql, { orgId, state: "forwarding", recomputed });
      await assert.rejects(
        admin.reconcileReservation({ hubOrderId: forwarding, opened: { onchainOrderId: "0x1234" } }),
        refusedWith("invalid-onchain-order-id"),
      );
      await assert.rejects(
        admin.reconcileReservation({ hubOrderId: forwarding, opened: { onchainOrderId: onchainId() } }),
        refusedWith("onchain-order-id-mismatch"),
      );
      const opened = await admin.reconcileReservation({
        hubOrderId: forwarding,
        opened: { onchainOrderId: recomputed.toUpperCase().replace("0X", "0x") },
      });
      assert.equal(opened.reservation.state, "acked");
      assert.equal(opened.reservation.onchainOrderId, recomputed);
      assert.equal(opened.reservation.onchainOrderIdSource, "verified");

      const other = await seedReservation(db.sql, { orgId, state: "unknown" });
      await assert.rejects(
        admin.reconcileReservation({ hubOrderId: other, opened: { onchainOrderId: recomputed } }),
        refusedWith("onchain-order-id-taken"),
      );
    });

    test("a reconcile writes one audit entry with the finding; a refused one writes none", async () => {
      const audited = createAdmin({
        store: createAccessStore(db.sql),
        reservations: createReservationBook(db.sql),
        audit: createAuditStore(db.sql),
        actor: { source: "dashboard", accountId: "acc_op", email: "op@example.com" },
      });
      const auditedOrg = `org_${randomBytes(6).toString("hex")}`;
      const acked = await seedReservation(db.sql, { orgId: auditedOrg, state: "acked" });
      await assert.rejects(
        audited.reconcileReservation({ hubOrderId: acked, opened: false }),
        refusedWith("reservation-not-pending"),
      );
      const unknown = await seedReservation(db.sql, { orgId: auditedOrg, state: "unknown" });
      await audited.reconcileReservation({ hubOrderId: unknown, opened: false, note: "upstream has none" });
      const { entries } = await audited.listAuditLog({ orgId: auditedOrg });
      assert.deepEqual(
        entries.map((e) => [e.action, e.source, e.actor, e.target, e.detail]),
        [
          [
            "reservation.mark-not-opened",
            "dashboard",
            "op@example.com",
            unknown,
            { state: "released", onchainOrderId: null, note: "upstream has none" },
          ],
        ],
      );
    });
  });
}
