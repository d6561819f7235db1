import assert from "node:assert/strict";
import { test } from "node:test";
import { z } from "zod";
import {
  errorCodes,
  errorEnvelope,
  errorEnvelopeSchema,
  successEnvelope,
  successEnvelopeSchema,
} from "../src/index.js";

test("every envelope the formatter renders for a catalogue code matches the error envelope schema", () => {
  for (const code of errorCodes) {
    const envelope = errorEnvelope(code, "req-1", { reference: "amount", params: ["200"] });
    const result = errorEnvelopeSchema.safeParse(envelope);
    assert.ok(result.success, code);
  }
});

test("the error envelope schema refuses a code outside the catalogue and an empty errors array", () => {
  assert.equal(
    errorEnvelopeSchema.safeParse({ success: false, errors: [{ error_code: "EIN9999" }] }).success,
    false,
  );
  assert.equal(errorEnvelopeSchema.safeParse({ success: false, errors: [] }).success, false);
});

test("a success envelope carries data and request_id only when present", () => {
  const schema = successEnvelopeSchema(z.object({ a: z.number() }));
  assert.ok(schema.safeParse(successEnvelope({ a: 1 }, "req")).success);
  assert.deepEqual(successEnvelope({ a: 1 }, ""), { success: true, data: { a: 1 } });
  assert.equal(schema.safeParse({ success: true }).success, false);
});
