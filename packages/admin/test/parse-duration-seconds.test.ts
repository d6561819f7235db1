import assert from "node:assert/strict";
import { test } from "node:test";
import { parseDurationSeconds } from "../src/index.js";

test("a key lifetime is a number and a unit: s, m, h or d", () => {
  const table: Array<[string, number | undefined]> = [
    ["45s", 45],
    ["90m", 5400],
    ["12h", 43200],
    ["30d", 2592000],
    ["0d", undefined],
    ["1w", undefined],
    ["1.5h", undefined],
    ["-1d", undefined],
    ["d", undefined],
    ["30", undefined],
    ["30 d", undefined],
  ];
  for (const [input, seconds] of table) assert.equal(parseDurationSeconds(input), seconds, input);
});
