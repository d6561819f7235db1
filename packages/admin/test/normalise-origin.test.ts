import assert from "node:assert/strict";
import { test } from "node:test";
import { AdminRefusal, normaliseOrigin } from "../src/index.js";

const accepted: Array<[input: string, origin: string]> = [
  ["https://app.example.com", "https://app.example.com"],
  ["http://127.0.0.1:8081", "http://127.0.0.1:8081"],
  ["http://localhost:3000", "http://localhost:3000"],
  ["HTTPS://App.Example.COM", "https://app.example.com"],
  ["https://app.example.com:443", "https://app.example.com"],
  ["http://app.example.com:80", "http://app.example.com"],
  ["https://app.example.com:80", "https://app.example.com:80"],
  ["http://app.example.com:443", "http://app.example.com:443"],
  ["https://app.example.com/", "https://app.example.com"],
  ["http://[::1]:5173", "http://[::1]:5173"],
  ["https://bücher.example", "https://xn--bcher-kva.example"],
];

const refused: Array<[input: string, reason: RegExp]> = [
  ["", /empty/],
  ["app.example.com", /scheme:\/\/host/],
  ["localhost:3000", /scheme:\/\/host/],
  ["ftp://app.example.com", /http or https/],
  ["ws://app.example.com", /http or https/],
  ["https://*.example.com", /wildcards/],
  ["*", /wildcards/],
  ["https://app.example.com/path", /path/],
  ["https://app.example.com//", /path/],
  ["https://app.example.com?x=1", /query or fragment/],
  ["https://app.example.com#top", /query or fragment/],
  ["https://user:pw@app.example.com", /credentials/],
  [" https://app.example.com", /whitespace/],
  ["https://app.example.com ", /whitespace/],
  ["https:\\\\app.example.com", /backslash/],
  ["https://app.example.com:99999", /host or port/],
  ["https://app.example.com:0", /port 0/],
  ["https://:443", /host or port/],
  ["null", /scheme:\/\/host/],
];

test("an allowed origin is stored in the exact form a browser sends: scheme://host[:port], default port dropped", () => {
  for (const [input, origin] of accepted) assert.equal(normaliseOrigin(input), origin, input);
});

test("anything but an exact http or https origin is refused with a message naming the problem", () => {
  for (const [input, reason] of refused) {
    assert.throws(
      () => normaliseOrigin(input),
      (error) =>
        error instanceof AdminRefusal && error.code === "invalid-origin" && reason.test(error.message),
      input,
    );
  }
});
