import assert from "node:assert/strict";
import type { AddressInfo } from "node:net";
import { after, before, describe, test } from "node:test";
import { type ErrorCode, errorCatalogue, isApiKeyFormat, isProjectIdFormat } from "@hub/contract";
import { parseCredential } from "../src/index.js";
import { type RawAnswer, rawRequest } from "./fixtures/raw-http.js";
import { type StartedGateway, startGateway } from "./fixtures/start-gateway.js";

/** A small seeded generator, so a failing case can be replayed. */
function random(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (n: number) => Math.floor(next() * n),
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T,
  };
}

const ALPHABETS = [
  "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_",
  "\u0000\u0001\u001f\u007f\r\n\t ",
  "éß漢字🙂\u200b\ufeff",
  "%/?#&=;,.:\\\"'<>{}[]",
];

function randomText(r: ReturnType<typeof random>, maxLength: number): string {
  let out = "";
  const length = r.int(maxLength + 1);
  for (let i = 0; i < length; i++) {
    const alphabet = r.pick(ALPHABETS);
    out += alphabet[r.int(alphabet.length)];
  }
  return out;
}

function percentEncoded(text: string): string {
  return [...Buffer.from(text, "utf8")].map((b) => `%${b.toString(16).padStart(2, "0")}`).join("");
}

/** Holds an answer to the envelope: success false, one error with a known code, request_id equal to the header. */
function assertEnvelope(answer: RawAnswer, expected?: ErrorCode): string {
  const text = answer.body.toString("utf8");
  const envelope = JSON.parse(text);
  assert.equal(envelope.success, false, text);
  assert.equal(envelope.errors.length, 1, text);
  const code = envelope.errors[0].error_code as ErrorCode;
  assert.ok(code in errorCatalogue, `unknown code ${code}`);
  assert.equal(answer.status, errorCatalogue[code].status, `${code} status`);
  assert.equal(envelope.request_id, answer.headers["x-request-id"], text);
  if (expected) assert.equal(code, expected, text);
  return code;
}

describe("fuzz: the credential parser", () => {
  test("random header values never throw and are refused unless they have the exact format", () => {
    const r = random(1);
    for (let i = 0; i < 5_000; i++) {
      const headers: Record<string, string | string[] | undefined> = {};
      const roll = r.int(6);
      const prefixKey = r.next() < 0.3 ? "svc_sk_" : "";
      const prefixProject = r.next() < 0.3 ? "proj_" : "";
      if (roll % 2 === 0) headers["x-api-key"] = prefixKey + randomText(r, 60);
      if (roll % 3 === 0) headers["x-project-id"] = prefixProject + randomText(r, 40);
      if (roll === 5) headers["x-api-key"] = [randomText(r, 10), randomText(r, 10)];
      const parsed = parseCredential(headers);
      if (parsed.ok && parsed.kind === "key") assert.ok(isApiKeyFormat(parsed.key));
      if (parsed.ok && parsed.kind === "project") assert.ok(isProjectIdFormat(parsed.projectId));
      if (!parsed.ok) assert.ok(["EPX0001", "EPX0007", "EPX0008"].includes(parsed.code));
    }
  });
});

describe("fuzz: hostile requests to the gateway", () => {
  let gw: StartedGateway;
  let port: number;
  let key: string;
  let projectId: string;

  before(async () => {
    gw = await startGateway({
      config: {
        bodyReadTimeoutMs: 300,
        lockoutFailures: 1_000_000,
        organizationPool: { ratePerSecond: 1_000_000, burst: 1_000_000 },
        projectPool: { ratePerSecond: 1_000_000, burst: 1_000_000 },
        visitorBucket: { ratePerSecond: 1_000_000, burst: 1_000_000 },
      },
    });
    port = (gw.app.server.address() as AddressInfo).port;
    key = gw.access.addKey("org_z").key;
    projectId = gw.access.addProject("org_z");
  });
  after(async () => {
    const health = await rawRequest(port, ["GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"]);
    assert.equal(health.status, 200, "the gateway is still up after the fuzz");
    await gw.close();
  });

  const get = (path: string, headers: string) =>
    `GET ${path} HTTP/1.1\r\nHost: x\r\n${headers}Connection: close\r\n\r\n`;

  test("headers over Node's limit are EPX0006 (400) in the envelope", async () => {
    const answer = await rawRequest(port, [get("/v1/catalog", `X-Big: ${"a".repeat(20_000)}\r\n`)]);
    assertEnvelope(answer, "EPX0006");
  });

  test("a credential header sent twice is malformed (EPX0001, EPX0008)", async () => {
    assertEnvelope(
      await rawRequest(port, [get("/v1/catalog", `x-api-key: ${key}\r\nx-api-key: ${key}\r\n`)]),
      "EPX0001",
    );
    assertEnvelope(
      await rawRequest(port, [
        get("/v1/catalog", `x-project-id: ${projectId}\r\nx-project-id: ${projectId}\r\n`),
      ]),
      "EPX0008",
    );
    assertEnvelope(
      await rawRequest(port, [get("/v1/catalog", `x-api-key: ${key}\r\nx-project-id: ${projectId}\r\n`)]),
      "EPX0007",
    );
  });

  test("invalid UTF-8 and control characters in a credential are refused, never crash", async () => {
    const invalid = Buffer.concat([
      Buffer.from("GET /v1/catalog HTTP/1.1\r\nHost: x\r\nx-api-key: svc_sk_"),
      Buffer.from([0xff, 0xfe, 0xc3, 0x28, 0x80]),
      Buffer.from("\r\nConnection: close\r\n\r\n"),
    ]);
    assertEnvelope(await rawRequest(port, [invalid]), "EPX0001");
    const control = await rawRequest(port, [get("/v1/catalog", "x-api-key: svc_sk_\u0001\u0002\r\n")]);
    assertEnvelope(control);
    const nul = await rawRequest(port, [get("/v1/catalog", "x-project-id: proj_\u0000abc\r\n")]);
    assertEnvelope(nul);
  });

  test("absurd paths and query strings answer EPX0004 or a credential code, never a crash", async () => {
    const paths = [
      `/v1/${"a/".repeat(3_000)}`,
      "/v1/order/%ZZ/status",
      "/v1/order/%/status",
      "/v1/../v1/catalog",
      "/v1//catalog",
      "/v1/catalog%00",
      "/v1/onchain/tx/%E0%A4%A/abc/order",
      `/v1/catalog?${"q=1&".repeat(2_000)}`,
      "/v1/catalog?%ZZ=%%%",
      "/v1/catalog#frag",
      "*",
      "/%",
    ];
    for (const path of paths) {
      const answer = await rawRequest(port, [get(path, `x-api-key: ${key}\r\n`)]);
      if (answer.status === 200) continue;
      const code = assertEnvelope(answer);
      assert.ok(["EPX0004", "EPX0006"].includes(code), `${path}: ${code}`);
    }
  });

  test("bodies around the 64 KiB edge: 65,535 and 65,536 bytes pass, 65,537 is EPX0005, declared or chunked", async () => {
    for (const size of [65_535, 65_536, 65_537]) {
      const body = Buffer.alloc(size, 0x7b);
      const declared = await rawRequest(port, [
        `POST /v1/order HTTP/1.1\r\nHost: x\r\nx-api-key: ${key}\r\nContent-Type: application/json\r\nContent-Length: ${size}\r\nConnection: close\r\n\r\n`,
        body,
      ]);
      const chunked = await rawRequest(port, [
        `POST /v1/order HTTP/1.1\r\nHost: x\r\nx-api-key: ${key}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n`,
        `${(size - 1000).toString(16)}\r\n`,
        body.subarray(0, size - 1000),
        "\r\n3e8\r\n",
        body.subarray(size - 1000),
        "\r\n0\r\n\r\n",
      ]);
      for (const answer of [declared, chunked]) {
        if (size <= 65_536) assert.equal(answer.status, 200, `${size}`);
        else assertEnvelope(answer, "EPX0005");
      }
    }
  });

  test("a chunked body that never ends is given up with EPX0006 and the hub never sees it", async () => {
    const before = gw.hub.calls.length;
    const answer = await rawRequest(
      port,
      [
        `POST /v1/order HTTP/1.1\r\nHost: x\r\nx-api-key: ${key}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`,
        "2\r\n{}\r\n",
      ],
      { timeoutMs: 3_000 },
    );
    assertEnvelope(answer, "EPX0006");
    assert.equal(gw.hub.calls.length, before);
  });

  test("a body shorter than its declared length is given up with EPX0006", async () => {
    const answer = await rawRequest(port, [
      `POST /v1/order HTTP/1.1\r\nHost: x\r\nx-api-key: ${key}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{}`,
    ]);
    assertEnvelope(answer, "EPX0006");
  });

  test("broken framing (bad chunk size, bad method, bad version) is EPX0006 in the envelope", async () => {
    const cases = [
      `POST /v1/order HTTP/1.1\r\nHost: x\r\nx-api-key: ${key}\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n`,
      "BREW /v1/catalog HTTP/1.1\r\nHost: x\r\n\r\n",
      "GET /v1/catalog HTTP/9.9\r\nHost: x\r\n\r\n",
      `GET /v1/catalog HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n`,
      "\u0000\u0001\u0002garbage\r\n\r\n",
    ];
    for (const raw of cases) assertEnvelope(await rawRequest(port, [raw]), "EPX0006");
  });

  test("random requests always answer the envelope with a catalogued code and status, or pass to the hub", async () => {
    const r = random(7);
    const methods = ["GET", "POST", "PUT", "DELETE", "OPTIONS", "PATCH", "HEAD"];
    const paths = [
      "/v1/catalog",
      "/v1/quote",
      "/v1/orders",
      "/v1/order/x/status",
      "/v1/zzz",
      "/v1",
      "/v1/order",
    ];
    for (let i = 0; i < 300; i++) {
      const method = r.pick(methods);
      const path = r.pick(paths) + (r.next() < 0.3 ? `?${percentEncoded(randomText(r, 30))}` : "");
      let headers = "";
      if (r.next() < 0.5)
        headers += `x-api-key: ${r.next() < 0.5 ? key : `svc_sk_${randomText(r, 43).replace(/[\r\n]/g, "")}`}\r\n`;
      if (r.next() < 0.3)
        headers += `x-project-id: ${r.next() < 0.5 ? projectId : randomText(r, 30).replace(/[\r\n]/g, "")}\r\n`;
      if (r.next() < 0.3) headers += `Origin: https://${r.int(5)}.example\r\n`;
      if (r.next() < 0.3) headers += `X-Service-Subject: ${randomText(r, 20).replace(/[\r\n]/g, "")}\r\n`;
      const body = r.next() < 0.4 ? Buffer.from(randomText(r, 200)) : undefined;
      if (body) headers += `Content-Type: application/json\r\nContent-Length: ${body.length}\r\n`;
      const head = `${method} ${path} HTTP/1.1\r\nHost: x\r\n${headers}Connection: close\r\n\r\n`;
      const answer = await rawRequest(port, body ? [head, body] : [head], {
        headOnly: method === "HEAD",
      }).catch((error: Error) => {
        throw new Error(`${error.message}: ${JSON.stringify(head)}`);
      });
      if (method === "HEAD" || answer.status === 200 || answer.status === 204) continue;
      assertEnvelope(answer);
    }
  });
});
