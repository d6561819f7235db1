import assert from "node:assert/strict";
import { test } from "node:test";
import { hubOrderId, newOpaqueId, replicaOfOpaqueId } from "../src/index.js";

test("hubOrderId is lowercase hex SHA-256 of service:v1:order: followed by the quoteId (fixed vector)", () => {
  assert.equal(
    hubOrderId("quote_r1_abc"),
    "b79f848e1861c8e05bc062f559ca9b634765095c55d75502e2018997b0eebf65",
  );
});

test("an opaque id names the replica that issued it", () => {
  const id = newOpaqueId("q", "r7");
  assert.match(id, /^q_r7_[A-Za-z0-9_-]{22}$/);
  assert.equal(replicaOfOpaqueId(id), "r7");
  assert.equal(replicaOfOpaqueId("no-replica-here"), undefined);
});

test("the replica is read correctly when the random part of an opaque id contains underscores", () => {
  assert.equal(replicaOfOpaqueId("q_r7_ab_cd_ef"), "r7");
  assert.equal(replicaOfOpaqueId("q__abc"), undefined);
  assert.equal(replicaOfOpaqueId("q_r7_"), undefined);
});

test("opaque ids stay distinct and 22 random characters long across refills of their drawn entropy", () => {
  const ids = Array.from({ length: 300 }, () => newOpaqueId("qr", "r1"));
  for (const id of ids) assert.match(id, /^qr_r1_[A-Za-z0-9_-]{22}$/);
  assert.equal(new Set(ids).size, ids.length);
});
