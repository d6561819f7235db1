import assert from "node:assert/strict";
import { test } from "node:test";
import { checkControlRequest } from "../src/control/check-control-request.js";

const local: Parameters<typeof checkControlRequest>[0] = {
  method: "POST",
  host: "127.0.0.1:4000",
  origin: undefined,
  contentType: "application/json",
  localPort: 4000,
};

const rows: [string, Partial<typeof local>, string | undefined][] = [
  ["a local JSON POST passes", {}, undefined],
  ["localhost with the port passes", { host: "localhost:4000" }, undefined],
  ["[::1] with the port passes", { host: "[::1]:4000" }, undefined],
  ["a GET needs no Content-Type", { method: "GET", contentType: undefined }, undefined],
  ["a same-origin page passes", { origin: "http://127.0.0.1:4000" }, undefined],
  [
    "a JSON Content-Type with a charset passes",
    { contentType: "application/json; charset=utf-8" },
    undefined,
  ],
  ["a rebound Host (a page's own name) is refused", { host: "evil.example:4000" }, "HOST_NOT_ALLOWED"],
  ["a loopback Host on another port is refused", { host: "127.0.0.1:80" }, "HOST_NOT_ALLOWED"],
  ["a Host without the port is refused", { host: "localhost" }, "HOST_NOT_ALLOWED"],
  ["no Host is refused", { host: undefined }, "HOST_NOT_ALLOWED"],
  ["a cross-origin page is refused", { origin: "https://evil.example" }, "ORIGIN_NOT_ALLOWED"],
  ["an opaque origin is refused", { origin: "null" }, "ORIGIN_NOT_ALLOWED"],
  ["a body-less POST is refused", { contentType: undefined }, "UNSUPPORTED_MEDIA_TYPE"],
  [
    "a text/plain POST (a simple cross-site form) is refused",
    { contentType: "text/plain" },
    "UNSUPPORTED_MEDIA_TYPE",
  ],
];

for (const [rule, change, error] of rows) {
  test(`control request: ${rule}`, () => {
    assert.equal(checkControlRequest({ ...local, ...change })?.error, error);
  });
}
