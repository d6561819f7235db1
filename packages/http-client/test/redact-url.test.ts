import assert from "node:assert/strict";
import { test } from "node:test";
import { redactUrl, redactUrlsInText } from "../src/redact-url.js";

test("redactUrl hides user info, query values and key-like path segments, and keeps the rest", () => {
  const rows: [string, string][] = [
    ["https://eth-mainnet.g.alchemy.com/v2/AbCdEf0123456789xyzQ", "https://eth-mainnet.g.alchemy.com/v2/***"],
    ["https://mainnet.infura.io/v3/9aa3d95b3bc440fa88ea12eaa4456161", "https://mainnet.infura.io/v3/***"],
    ["postgres://hub:s3cret@db.internal:5432/hub", "postgres://***@db.internal:5432/hub"],
    ["redis://:pw@redis:6379/0", "redis://***@redis:6379/0"],
    [
      "https://rpc.example/solana?api-key=abc&cluster=main",
      "https://rpc.example/solana?api-key=***&cluster=***",
    ],
    ["http://127.0.0.1:8545", "http://127.0.0.1:8545/"],
    [
      "https://oif.example/v1/orders/0x1234567890abcdef1234567890abcdef12345678",
      "https://oif.example/v1/orders/0x1234567890abcdef1234567890abcdef12345678",
    ],
    ["https://oif.example/api/v1#token=x", "https://oif.example/api/v1#***"],
    ["not a url", "***"],
  ];
  for (const [url, shown] of rows) assert.equal(redactUrl(url), shown, url);
});

test("redactUrlsInText redacts every URL inside a sentence and leaves its punctuation", () => {
  assert.equal(
    redactUrlsInText(
      "HTTP request failed. URL: https://x.example/v2/AbCdEf0123456789xyzQ, then redis://u:p@r:6379.",
    ),
    "HTTP request failed. URL: https://x.example/v2/***, then redis://***@r:6379.",
  );
  assert.equal(redactUrlsInText("no URL here"), "no URL here");
});
