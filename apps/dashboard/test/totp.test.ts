import assert from "node:assert/strict";
import { test } from "node:test";
import {
  base32Decode,
  base32Encode,
  hotp,
  matchTotp,
  newRecoveryCodes,
  otpauthUri,
  totpCode,
} from "../src/auth/totp.js";

// RFC 6238 appendix B, SHA-1 seed "12345678901234567890"; its 8-digit values end in these 6 digits.
const SECRET = base32Encode(Buffer.from("12345678901234567890"));
const VECTORS: [number, string][] = [
  [59, "287082"],
  [1_111_111_109, "081804"],
  [1_111_111_111, "050471"],
  [1_234_567_890, "005924"],
  [2_000_000_000, "279037"],
  [20_000_000_000, "353130"],
];

test("TOTP matches RFC 6238's SHA-1 test vectors", () => {
  assert.equal(SECRET, "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ");
  assert.deepEqual(base32Decode(SECRET).toString(), "12345678901234567890");
  for (const [seconds, code] of VECTORS)
    assert.equal(totpCode(SECRET, seconds * 1000), code, `at ${seconds} s`);
  // RFC 4226 appendix D, counter 1.
  assert.equal(hotp(SECRET, 1), "287082");
});

test("a code matches its step and one step either side, nothing further", () => {
  const now = 1_234_567_890_000;
  const step = Math.floor(now / 30_000);
  assert.equal(matchTotp(SECRET, totpCode(SECRET, now), now), step);
  assert.equal(matchTotp(SECRET, totpCode(SECRET, now - 30_000), now), step - 1);
  assert.equal(matchTotp(SECRET, totpCode(SECRET, now + 30_000), now), step + 1);
  assert.equal(matchTotp(SECRET, totpCode(SECRET, now - 90_000), now), undefined);
  assert.equal(matchTotp(SECRET, "12345", now), undefined);
});

test("ten distinct recovery codes and an otpauth URI apps read", () => {
  const codes = newRecoveryCodes();
  assert.equal(new Set(codes).size, 10);
  for (const code of codes) assert.match(code, /^[a-z2-9]{4}-[a-z2-9]{4}-[a-z2-9]{4}$/);
  const uri = new URL(otpauthUri({ secret: SECRET, account: "a@example.com", issuer: "Intent Hub" }));
  assert.equal(uri.protocol, "otpauth:");
  assert.equal(uri.searchParams.get("secret"), SECRET);
  assert.equal(uri.searchParams.get("period"), "30");
});
