import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { after, before, describe, test } from "node:test";
import { type Admin, AdminRefusal, createAdmin } from "@hub/admin";
import { hubOrderId } from "@hub/contract";
import { createAccessStore, createTestDatabases, type SqlClient, type TestDatabase } from "@hub/store";
import { createReservationBook } from "../src/index.js";

const databases = createTestDatabases({ databaseUrl: process.env.DATABASE_URL });
after(() => databases.dispose());

const refusedWith = (code: string) => (error: unknown) =>
  error instanceof AdminRefusal && error.code === code;
const onchainId = () => `0x${randomBytes(32).toString("hex")}`;

/** A quote with a reservation in the given state, as the hub would have left it. */
async function seedReservation(
  sql: SqlClient,
  input: { orgId: string; state: "forwarding" | "unknown" | "acked"; recomputed?: string },
) {
  const quoteId = `q_r1_${randomBytes(12).toString("base64url")}`;
  const id = hubOrderId(quoteId);
  const now = new Date();
  const later = new Date(now.getTime() + 30_000);
  await sql.query(
    `INSERT INTO quotes (quote_id, quote_request_id, org_id, subject, replica_id, lane, provider_id,
       request_fingerprint, winner, template, issued_at, expires_at, registrable_until, onchain_order_id)
     VALUES ($1, 'qr_r1_x', $2, 'user-1', 'r1', 'oif-escrow-gasless', 'devnet', $3, '{}'::jsonb, '{}'::jsonb, $4, $5, $5, $6)`,
    [quoteId, input.orgId, "a".repeat(64), now.toISOString(), later.toISOString(), input.recomputed ?? null],
  );
  const acked = input.state === "acked";
  await sql.query(
    `INSERT INTO submissions (hub_order_id, quote_id, org_id, subject, route, lane, request_fingerprint, state,
       upstream_provider_id, reserved_at, submitted_at, onchain_order_id, onchain_order_id_source)
     VALUES ($1, $2, $3, 'user-1', 'openfor', 'oif-escrow-gasless', $4, $5, 'devnet', $6, $7, $8, $9)`,
    [
      id,
      quoteId,
      input.orgId,
      "b".repeat(64),
      input.state,
      now.toISOString(),
      acked ? now.toISOString() : null,
      acked ? onchainId() : null,
      acked ? "upstream" : null,
    ],
  );
  return id;
}

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
  });
}
