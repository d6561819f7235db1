import assert from "node:assert/strict";
import { test } from "node:test";
import { checkDeadlineBound, DEFAULT_QUOTE_MAX_DEADLINE_MS } from "../src/quotes/check-deadline-bound.js";
import { QuoteRejection } from "../src/quotes/quote-rejection.js";

const nowMs = 1_800_000_000_000;
const now = nowMs / 1000;

test("a deadline exactly at the bound passes; one second past it is deadline-too-far, naming it", () => {
  assert.equal(DEFAULT_QUOTE_MAX_DEADLINE_MS, 86_400_000);
  checkDeadlineBound({ fillDeadline: now + 300, expires: now + 86_400 }, nowMs);
  assert.throws(
    () => checkDeadlineBound({ fillDeadline: now + 300, expires: now + 86_401 }, nowMs),
    (error: unknown) =>
      error instanceof QuoteRejection &&
      error.reason === "deadline-too-far" &&
      error.detail === `expires ${now + 86_401} is 86401 s ahead, past the 86400 s bound`,
  );
});

test("the first deadline past the bound is named, and the bound is the one given", () => {
  assert.throws(
    () => checkDeadlineBound({ fillDeadline: now + 7200, expires: now + 9000 }, nowMs, 3_600_000),
    (error: unknown) => error instanceof QuoteRejection && error.detail.startsWith("fillDeadline "),
  );
  checkDeadlineBound({ fillDeadline: now + 7200 }, nowMs, 7_200_000);
});
