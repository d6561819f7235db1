import assert from "node:assert/strict";
import { test } from "node:test";
import {
  apiKeyDisplayPrefix,
  generateApiKey,
  generateProjectId,
  hashApiKey,
  isApiKeyFormat,
  isProjectIdFormat,
  isValidSubject,
} from "../src/index.js";

test("a generated key is svc_sk_ followed by exactly 43 base64url characters", () => {
  for (let i = 0; i < 200; i++) {
    const key = generateApiKey();
    assert.match(key, /^svc_sk_[A-Za-z0-9_-]{43}$/);
    assert.ok(isApiKeyFormat(key));
  }
});

test("the key format check refuses wrong prefixes, lengths and alphabets", () => {
  const body = "a".repeat(43);
  assert.ok(isApiKeyFormat(`svc_sk_${body}`));
  for (const bad of [
    `svc_sk_${body}a`,
    `svc_sk_${"a".repeat(42)}`,
    `svc_pk_${body}`,
    `svc_sk_${"a".repeat(42)}=`,
    `svc_sk_${"a".repeat(42)}+`,
    "",
    ` svc_sk_${body}`,
  ]) {
    assert.equal(isApiKeyFormat(bad), false, bad);
  }
});

test("a key is stored only as its SHA-256 and shown by a short prefix", () => {
  const key = generateApiKey();
  assert.match(hashApiKey(key), /^[0-9a-f]{64}$/);
  assert.notEqual(hashApiKey(key), hashApiKey(generateApiKey()));
  assert.equal(apiKeyDisplayPrefix(key), key.slice(0, 11));
});

test("a project id is proj_ followed by 24 base62 characters", () => {
  const id = generateProjectId();
  assert.match(id, /^proj_[A-Za-z0-9]{24}$/);
  assert.ok(isProjectIdFormat(id));
  assert.equal(isProjectIdFormat(`${id}x`), false);
  assert.equal(isProjectIdFormat(id.replace("proj_", "prj_")), false);
});

test("the subject pattern admits 1 to 128 of letters, digits and ._@+~- only", () => {
  for (const good of ["a", "user.1@example.com", "A-b_c~d+e", "x".repeat(128)])
    assert.ok(isValidSubject(good), good);
  for (const bad of ["", "x".repeat(129), "a b", "a/b", "ü", "a,b", "a\nb"])
    assert.equal(isValidSubject(bad), false, bad);
});
