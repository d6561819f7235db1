import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { upstreamFailedAtValues, upstreamStates } from "../src/status-rules/upstream-state.js";
import {
  oifDialects,
  oifDialectTables,
  reportStatusOf,
  submissionMeaningOf,
} from "../src/providers/oif-aggregator/oif-dialects.js";
import { OrderStatus, PostOrderResponseStatus, specSchemas } from "./fixtures/oif-spec-schemas.js";

describe("the OIF dialect tables", () => {
  test("the specification's table names exactly the package's OrderStatus and PostOrderResponseStatus values", () => {
    const table = oifDialectTables["oif-spec-1"];
    assert.deepEqual(Object.keys(table.orderStates).sort(), Object.values(OrderStatus).sort());
    assert.deepEqual(
      Object.keys(table.submissionStatuses).sort(),
      Object.values(PostOrderResponseStatus).sort(),
    );
    assert.deepEqual(table.failureStages, {}, "the specification's failed carries no stage");
  });

  test("the specification's spelling of every lane scheme is one its originSubmission schema takes", () => {
    for (const scheme of Object.values(oifDialectTables["oif-spec-1"].schemes)) {
      const request = {
        user: "0x000100000101aa",
        intent: {
          intentType: "oif-swap",
          inputs: [],
          outputs: [],
          originSubmission: { mode: "user", schemes: [scheme] },
        },
        supportedTypes: [],
      };
      assert.equal(specSchemas.getQuoteRequest.safeParse(request).success, true, scheme);
    }
    assert.equal(
      specSchemas.getQuoteRequest.safeParse({
        user: "0x000100000101aa",
        intent: {
          intentType: "oif-swap",
          inputs: [],
          outputs: [],
          originSubmission: { mode: "user", schemes: ["eip3009"] },
        },
        supportedTypes: [],
      }).success,
      false,
      "the reference's eip3009 is not the specification's spelling",
    );
  });

  test("every state and stage of every table maps into the hub's own", () => {
    for (const dialect of oifDialects) {
      const table = oifDialectTables[dialect];
      for (const state of Object.values(table.orderStates)) assert.ok(upstreamStates.includes(state), state);
      for (const stage of Object.values(table.failureStages))
        assert.ok(upstreamFailedAtValues.includes(stage), stage);
    }
    assert.deepEqual(Object.values(oifDialectTables["oif-aggregator"].failureStages), [
      ...upstreamFailedAtValues,
    ]);
  });

  const rows: { dialect: (typeof oifDialects)[number]; status: unknown; report: unknown; why: string }[] = [
    { dialect: "oif-spec-1", status: "created", report: "created", why: "a forward state" },
    { dialect: "oif-spec-1", status: "settling", report: "settling", why: "a forward state" },
    { dialect: "oif-spec-1", status: "failed", report: "failed", why: "failed, no stage, no message" },
    { dialect: "oif-spec-1", status: "refunded", report: "refunded", why: "refunded" },
    {
      dialect: "oif-spec-1",
      status: { failed: ["Fill", "reverted"] },
      report: { failed: ["Fill", "reverted"] },
      why: "the reference's arm is not the specification's: passed on for the rules to refuse",
    },
    { dialect: "oif-spec-1", status: "postFilled", report: "postFilled", why: "outside the enum: passed on" },
    { dialect: "oif-aggregator", status: "executed", report: "executed", why: "a forward state" },
    {
      dialect: "oif-aggregator",
      status: { failed: ["PreClaim", "no proof"] },
      report: { failed: ["PreClaim", "no proof"] },
      why: "the failed arm with a known stage",
    },
    {
      dialect: "oif-aggregator",
      status: { failed: ["Bridge", "x"] },
      report: { failed: ["Bridge", "x"] },
      why: "a solver stage outside the aggregator's enum: passed on",
    },
    {
      dialect: "oif-aggregator",
      status: "failed",
      report: "failed",
      why: "not the reference's form: passed on",
    },
    { dialect: "oif-aggregator", status: "toString", report: "toString", why: "no inherited key is a state" },
  ];
  const submissions: { dialect: (typeof oifDialects)[number]; status: unknown; meaning: unknown }[] = [
    { dialect: "oif-spec-1", status: "received", meaning: "accepted" },
    { dialect: "oif-spec-1", status: "rejected", meaning: "rejected" },
    { dialect: "oif-spec-1", status: "error", meaning: "error" },
    { dialect: "oif-spec-1", status: "created", meaning: undefined },
    { dialect: "oif-aggregator", status: "created", meaning: "accepted" },
    { dialect: "oif-aggregator", status: "executing", meaning: "accepted" },
    { dialect: "oif-aggregator", status: { failed: ["Prepare", "x"] }, meaning: "accepted" },
    { dialect: "oif-aggregator", status: { failed: ["Bridge", "x"] }, meaning: undefined },
    { dialect: "oif-aggregator", status: "received", meaning: undefined },
  ];
  for (const row of submissions)
    test(`${row.dialect}: a submission answered ${JSON.stringify(row.status)} means ${row.meaning}`, () => {
      assert.equal(submissionMeaningOf(row.dialect, row.status), row.meaning);
    });

  for (const row of rows)
    test(`${row.dialect}: ${JSON.stringify(row.status)} reports ${JSON.stringify(row.report)} (${row.why})`, () => {
      assert.deepEqual(reportStatusOf(row.dialect, row.status), row.report);
    });
});
