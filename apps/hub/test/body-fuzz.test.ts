import assert from "node:assert/strict";
import type { AddressInfo } from "node:net";
import { after, before, describe, test } from "node:test";
import type { HubAnswer } from "@hub/contract";
import { parseHubConfig } from "../src/index.js";
import {
  answerOf,
  envelopeOf,
  GATEWAY_SECRET,
  gatewayHeaders,
  quoteBody,
  SUBJECT,
  startTestHub,
} from "./hub-fixture.js";

const HUB_BODY_LIMIT_BYTES = parseHubConfig({ gatewayCredential: GATEWAY_SECRET }).bodyLimitBytes;

/** A small seeded PRNG (mulberry32), so a failure can be replayed from the seed in its message. */
function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T>(items: readonly T[]): T => items[int(items.length)] as T;
  return { next, int, pick };
}

type Rng = ReturnType<typeof prng>;

const HOSTILE_KEYS = [
  "__proto__",
  "constructor",
  "prototype",
  "toString",
  "hasOwnProperty",
  "valueOf",
  "sourceAsset",
  "amount",
  "quoteId",
  "quoteRequestId",
  "artifactHash",
  "",
];

function randomString(rng: Rng): string {
  switch (rng.int(6)) {
    case 0:
      return "x".repeat(rng.int(20_000));
    case 1:
      return "\ud800\udfff\u0000\u2028\u{1f600}".slice(0, rng.int(6));
    case 2:
      return rng.pick(["eip155:31337/slip44:60", "0x", "1.5", "-1", "0", "1e3", "NaN"]);
    default:
      return Array.from({ length: rng.int(12) }, () => String.fromCharCode(rng.int(0x250))).join("");
  }
}

function randomValue(rng: Rng, depth: number): unknown {
  switch (rng.int(depth > 6 ? 5 : 8)) {
    case 0:
      return null;
    case 1:
      return rng.pick([0, -0, 1.5, 1e308, -1, 2 ** 53 + 1, 1000000]);
    case 2:
      return rng.next() < 0.5;
    case 3:
    case 4:
      return randomString(rng);
    case 5:
      return Array.from({ length: rng.int(4) }, () => randomValue(rng, depth + 1));
    default: {
      const out: Record<string, unknown> = {};
      for (let i = rng.int(6); i > 0; i--) {
        Object.defineProperty(
          out,
          rng.next() < 0.5 ? rng.pick(HOSTILE_KEYS) : randomString(rng).slice(0, 20),
          {
            value: randomValue(rng, depth + 1),
            enumerable: true,
            writable: true,
            configurable: true,
          },
        );
      }
      return out;
    }
  }
}

function randomBody(rng: Rng): Buffer {
  switch (rng.int(10)) {
    case 0:
      return Buffer.from(Array.from({ length: rng.int(300) }, () => rng.int(256)));
    case 1: {
      const depth = 1 + rng.int(30_000);
      return Buffer.from(
        rng.next() < 0.5
          ? "[".repeat(depth) + "]".repeat(depth)
          : `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`,
      );
    }
    case 2:
      return Buffer.from('{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}');
    case 3:
      return Buffer.from(`{"amount":"1","amount":2,"sourceAsset":"a","sourceAsset":"eip155:1/slip44:60"}`);
    case 4: {
      const valid = Buffer.from(JSON.stringify(quoteBody({ recipient: "REPLACE" })));
      const at = valid.indexOf("REPLACE");
      valid[at] = 0xff;
      valid[at + 1] = 0xc3;
      return valid;
    }
    case 5:
      return Buffer.from(JSON.stringify(quoteBody(randomValue(rng, 5) as Record<string, unknown>)));
    case 6: {
      const text = JSON.stringify(randomValue(rng, 0)) ?? "";
      const cut = rng.int(text.length + 1);
      return Buffer.from(rng.next() < 0.5 ? text : text.slice(0, cut));
    }
    case 7:
      return Buffer.from(
        rng.pick([
          "",
          " ",
          "\n",
          "null",
          "{}",
          "[]",
          '""',
          "0",
          '{"a":1e999}',
          '"\\ud800"',
          '{"a":"\\u0000"}',
        ]),
      );
    default:
      return Buffer.from(JSON.stringify(randomValue(rng, 0)) ?? "null");
  }
}

const CONTENT_TYPES = [
  undefined,
  "application/json",
  "application/json; charset=utf-8",
  "APPLICATION/JSON",
  "text/plain",
  "application/json;",
  ";",
  "garbage",
  "application/json; charset=latin1",
];
const TARGETS: [string, string][] = [
  ["POST", "/v1/quote"],
  ["POST", "/v1/quote/preview"],
  ["POST", "/v1/quote/prepare"],
  ["POST", "/v1/order/openfor"],
  ["POST", "/v1/order"],
  ["GET", "/v1/catalog"],
  ["GET", "/v1/orders"],
  ["GET", "/v1/onchain/0xab/fill"],
];

/** The code the spec's decode rules fix for this call before any field is looked at, if they fix one. */
function decodeOracle(
  method: string,
  contentType: string | undefined,
  body: Buffer,
  limitBytes: number,
): string | undefined {
  const json =
    contentType !== undefined && contentType.split(";")[0]!.trim().toLowerCase() === "application/json";
  const effective = body.length > limitBytes ? Buffer.alloc(0) : body;
  if (method === "GET") return effective.length > 0 && json ? "EMC0005" : undefined;
  if (effective.length === 0) return contentType === "application/json" ? "EMC0005" : "EIN0001";
  if (!json) return "EIN0001";
  let parsed: unknown;
  try {
    parsed = JSON.parse(effective.toString("utf8"));
  } catch {
    return "EMC0028";
  }
  return parsed === null || typeof parsed !== "object" || Array.isArray(parsed) ? "EIN0001" : undefined;
}

const ALLOWED = new Set(["OK", "EMC0005", "EMC0028", "EIN0001", "EIN0008", "EIN0009", "EIN0010"]);

function check(
  answer: HubAnswer,
  method: string,
  contentType: string | undefined,
  body: Buffer,
  label: string,
) {
  const envelope = envelopeOf(answer);
  const code = envelope.success ? "OK" : (envelope.errors?.[0]?.error_code ?? "none");
  assert.ok(ALLOWED.has(code), `${label}: unexpected ${code}: ${answer.body.toString().slice(0, 200)}`);
  const expected = decodeOracle(method, contentType, body, HUB_BODY_LIMIT_BYTES);
  if (expected !== undefined)
    assert.equal(code, expected, `${label}: ${answer.body.toString().slice(0, 200)}`);
  if (code === "EMC0028") assert.equal(envelope.errors?.[0]?.error_reference, "Body", label);
}

describe("the body decoder under random and hostile input", () => {
  const hub = startTestHub({
    organizationBucket: { ratePerSecond: 1e6, burst: 1e6 },
    perIpBucket: { ratePerSecond: 1e6, burst: 1e6 },
  });
  let port = 0;
  before(async () => {
    await hub.app.listen({ host: "127.0.0.1", port: 0 });
    port = (hub.app.server.address() as AddressInfo).port;
  });
  after(() => hub.close());

  test("every random body gets a well-formed envelope with the spec's code, in process", async () => {
    const seed = Date.now() % 1_000_000;
    const rng = prng(seed);
    for (let i = 0; i < 1500; i++) {
      const [method, url] = rng.pick(TARGETS);
      const contentType = rng.pick(CONTENT_TYPES);
      const body = randomBody(rng);
      const headers = {
        ...gatewayHeaders(),
        ...SUBJECT,
        ...(contentType === undefined ? {} : { "content-type": contentType }),
      };
      const answer = answerOf(await hub.handle({ method, url, headers, body }), method, url);
      check(answer, method, contentType, body, `seed ${seed} case ${i} ${method} ${url} ${contentType}`);
    }
    assert.equal(({} as Record<string, unknown>).polluted, undefined, "no prototype was polluted");
  });

  test("every random POST body gets a well-formed envelope with the spec's code, over HTTP", async () => {
    const seed = (Date.now() + 7) % 1_000_000;
    const rng = prng(seed);
    const posts = TARGETS.filter(([method]) => method === "POST");
    for (let i = 0; i < 300; i++) {
      const [method, url] = rng.pick(posts);
      const contentType = rng.pick(CONTENT_TYPES);
      const body = randomBody(rng);
      const headers: Record<string, string> = { ...gatewayHeaders(), ...SUBJECT };
      if (contentType !== undefined) headers["content-type"] = contentType;
      const response = await fetch(`http://127.0.0.1:${port}${url}`, { method, headers, body });
      const answer: HubAnswer = answerOf(
        {
          statusCode: response.status,
          headers: Object.fromEntries(response.headers),
          body: Buffer.from(await response.arrayBuffer()),
        },
        method,
        url,
      );
      check(answer, method, contentType, body, `seed ${seed} case ${i} ${method} ${url} ${contentType}`);
    }
    assert.equal(({} as Record<string, unknown>).polluted, undefined, "no prototype was polluted");
  });

  test("the hub keeps serving after the hostile bodies", async () => {
    const answer = await hub.handle({ method: "GET", url: "/v1/catalog", headers: gatewayHeaders() });
    assert.equal(envelopeOf(answer).success, true);
  });
});
