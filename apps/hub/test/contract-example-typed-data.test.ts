import assert from "node:assert/strict";
import { test } from "node:test";
import { operationExamples } from "@hub/contract";
import { hashTypedData } from "viem";
import {
  PERMIT2_WIRE_TYPES,
  permit2Hasher,
  typesAreExactly,
} from "../src/providers/oif-aggregator/expected-typed-data-types.js";

test("the OpenAPI example's Permit2 sign payload has the witness structure the hub vets and hashes as viem does", () => {
  const signPayload = (
    operationExamples.prepareQuote.responseData as { signPayload: Parameters<typeof hashTypedData>[0] }
  ).signPayload;
  assert.ok(typesAreExactly(signPayload.types, PERMIT2_WIRE_TYPES));
  assert.equal(permit2Hasher.hash(signPayload as never), hashTypedData(signPayload));
});
