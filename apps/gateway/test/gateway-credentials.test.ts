import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { assertRefusal, callGateway } from "./fixtures/call-gateway.js";
import { type StartedGateway, startGateway } from "./fixtures/start-gateway.js";

describe("gateway credentials, origins and CORS", () => {
  let gw: StartedGateway;
  let key: string;
  let projectId: string;
  const page = "https://app.example.com";

  before(async () => {
    gw = await startGateway();
    key = gw.access.addKey("org_a").key;
    projectId = gw.access.addProject("org_a", [page, "http://localhost:5173"]);
  });
  after(() => gw.close());

  test("a call with a valid key reaches the hub with the organization from the credential", async () => {
    const answer = await callGateway(gw.origin, "GET", "/v1/catalog", { headers: { "x-api-key": key } });
    assert.equal(answer.status, 200);
    assert.equal(answer.json.data.headers["x-service-org"], "org_a");
  });

  test("both credentials are refused EPX0007 (400)", async () => {
    const answer = await callGateway(gw.origin, "GET", "/v1/catalog", {
      headers: { "x-api-key": key, "x-project-id": projectId },
    });
    assertRefusal(answer, "EPX0007", 400);
  });

  test("a missing credential is EPX0001 (401)", async () => {
    assertRefusal(await callGateway(gw.origin, "GET", "/v1/catalog"), "EPX0001", 401);
  });

  test("a key in the wrong format is EPX0001 (401)", async () => {
    for (const bad of ["svc_sk_short", `svc_pk_${"a".repeat(43)}`, `${key}x`, `${key}, ${key}`]) {
      const answer = await callGateway(gw.origin, "GET", "/v1/catalog", { headers: { "x-api-key": bad } });
      assertRefusal(answer, "EPX0001", 401);
    }
  });

  test("an unknown, revoked or expired key is EPX0002 (401)", async () => {
    const unknown = `svc_sk_${"A".repeat(43)}`;
    const revoked = gw.access.addKey("org_a", { revokedAt: new Date(gw.clock.now() - 1000) }).key;
    const expired = gw.access.addKey("org_a", { expiresAt: new Date(gw.clock.now() - 1000) }).key;
    for (const bad of [unknown, revoked, expired]) {
      const answer = await callGateway(gw.origin, "GET", "/v1/catalog", { headers: { "x-api-key": bad } });
      assertRefusal(answer, "EPX0002", 401);
    }
  });

  test("a malformed project id is EPX0008 and an unknown one EPX0009 (401)", async () => {
    assertRefusal(
      await callGateway(gw.origin, "GET", "/v1/catalog", { headers: { "x-project-id": "proj_short" } }),
      "EPX0008",
      401,
    );
    assertRefusal(
      await callGateway(gw.origin, "GET", "/v1/catalog", {
        headers: { "x-project-id": `proj_${"a".repeat(24)}` },
      }),
      "EPX0009",
      401,
    );
  });

  test("a project id from an origin not on its list is EPX0010 (403), readable by the page", async () => {
    const answer = await callGateway(gw.origin, "GET", "/v1/catalog", {
      headers: { "x-project-id": projectId, origin: "https://evil.example.com" },
    });
    assertRefusal(answer, "EPX0010", 403);
    assert.equal(answer.headers["access-control-allow-origin"], "https://evil.example.com");
    assert.match(answer.headers["access-control-expose-headers"] ?? "", /X-Request-Id/);
    assert.equal(
      gw.hub.calls.some((c) => c.headers["x-request-id"] === answer.json.request_id),
      false,
    );
  });

  test("origins match exactly: scheme, host and port, no wildcards or prefixes", async () => {
    for (const near of [
      "http://app.example.com",
      "https://app.example.com:8443",
      "https://app.example.com.evil.io",
      "null",
    ]) {
      const answer = await callGateway(gw.origin, "GET", "/v1/catalog", {
        headers: { "x-project-id": projectId, origin: near },
      });
      assertRefusal(answer, "EPX0010", 403);
    }
    const ok = await callGateway(gw.origin, "GET", "/v1/catalog", {
      headers: { "x-project-id": projectId, origin: "http://localhost:5173" },
    });
    assert.equal(ok.status, 200);
  });

  test("a project-id answer from an allowed origin carries CORS headers exposing the request id and rate limits", async () => {
    const answer = await callGateway(gw.origin, "GET", "/v1/catalog", {
      headers: { "x-project-id": projectId, origin: page },
    });
    assert.equal(answer.status, 200);
    assert.equal(answer.headers["access-control-allow-origin"], page);
    assert.equal(
      answer.headers["access-control-expose-headers"],
      "X-Request-Id, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, Retry-After",
    );
    assert.match(answer.headers.vary ?? "", /Origin/);
  });

  test("answers to key calls carry no CORS headers, even with an Origin", async () => {
    const answer = await callGateway(gw.origin, "GET", "/v1/catalog", {
      headers: { "x-api-key": key, origin: page },
    });
    assert.equal(answer.status, 200);
    for (const name of Object.keys(answer.headers)) assert.doesNotMatch(name, /^access-control-/);
    const refused = await callGateway(gw.origin, "GET", "/v1/catalog", {
      headers: { "x-api-key": "svc_sk_bad", origin: page },
    });
    for (const name of Object.keys(refused.headers)) assert.doesNotMatch(name, /^access-control-/);
  });

  test("the pre-flight allows exactly x-project-id, Content-Type and X-Service-Subject, never x-api-key", async () => {
    const answer = await callGateway(gw.origin, "OPTIONS", "/v1/quote", {
      headers: {
        origin: page,
        "access-control-request-method": "POST",
        "access-control-request-headers": "x-api-key, content-type",
      },
    });
    assert.equal(answer.status, 204);
    assert.equal(
      answer.headers["access-control-allow-headers"],
      "x-project-id, Content-Type, X-Service-Subject",
    );
    assert.doesNotMatch(answer.headers["access-control-allow-headers"] ?? "", /api-key/i);
    assert.equal(answer.headers["access-control-allow-origin"], page);
  });

  test("GET /orders with a project id is EPX0003 (404) and never reaches the hub", async () => {
    const before = gw.hub.calls.length;
    const answer = await callGateway(gw.origin, "GET", "/v1/orders", {
      headers: { "x-project-id": projectId, "x-service-subject": "user-1" },
    });
    assertRefusal(answer, "EPX0003", 404);
    assert.ok(answer.headers["ratelimit-limit"]);
    assert.equal(gw.hub.calls.length, before);
  });

  test("a route that does not exist is EPX0004 (404)", async () => {
    for (const [method, path] of [
      ["GET", "/v1/nope"],
      ["POST", "/v1/catalog"],
      ["GET", "/v1/quote"],
      ["DELETE", "/v1/order"],
      ["GET", "/v1"],
      ["GET", "/v2/catalog"],
      ["GET", "/catalog"],
      ["GET", "/v1/catalog/"],
    ] as const) {
      const answer = await callGateway(gw.origin, method, path, { headers: { "x-api-key": key } });
      assertRefusal(answer, "EPX0004", 404);
    }
  });

  test("/metrics is not served on the public listener: it answers like an unknown route", async () => {
    await callGateway(gw.origin, "GET", "/v1/catalog", { headers: { "x-api-key": key } });
    for (const headers of [{}, { "x-api-key": key }] as Record<string, string>[]) {
      const answer = await callGateway(gw.origin, "GET", "/metrics", { headers });
      assertRefusal(answer, "EPX0004", 404);
      assert.doesNotMatch(answer.body.toString(), /gateway_answers_total/);
    }
  });

  test("a key never appears in a log line, a metric or an answer", async () => {
    await callGateway(gw.origin, "GET", "/v1/catalog", { headers: { "x-api-key": key } });
    await callGateway(gw.origin, "GET", "/v1/nope", { headers: { "x-api-key": key } });
    const metrics = await gw.registry.metrics();
    assert.match(metrics, /gateway_answers_total/);
    const secret = key.slice("svc_sk_".length);
    assert.equal(metrics.includes(secret), false);
    assert.ok(gw.logLines.length > 0);
    for (const line of gw.logLines) assert.equal(line.includes(secret), false, line);
    const answered = gw.logLines.map((l) => JSON.parse(l)).filter((l) => l.msg === "answered");
    assert.ok(answered.length >= 2);
    for (const line of answered) assert.match(line.request_id, /.+/);
  });

  test("calls through app.inject get the same rules as calls over the socket", async () => {
    const ok = await gw.app.inject({ method: "GET", url: "/v1/catalog", headers: { "x-api-key": key } });
    assert.equal(ok.statusCode, 200);
    assert.equal(ok.json().data.headers["x-service-org"], "org_a");
    const refused = await gw.app.inject({
      method: "POST",
      url: "/v1/quote",
      headers: { "content-type": "garbage" },
    });
    assert.equal(refused.statusCode, 401);
    assert.equal(refused.json().errors[0].error_code, "EPX0001");
    assert.equal(refused.json().request_id, refused.headers["x-request-id"]);
  });

  test("GET /healthz answers 200 outside /v1 without a credential", async () => {
    const answer = await callGateway(gw.origin, "GET", "/healthz");
    assert.equal(answer.status, 200);
  });

  test("GET /readyz tells the public only the status: what failed and why stay on the operator listener", async () => {
    const report = {
      status: "not-ready" as const,
      notReady: ["database"],
      checks: [{ name: "database", ready: false, detail: "connect ECONNREFUSED 10.1.2.3:5432", ms: 2 }],
    };
    const notReady = await startGateway({ readiness: async () => report });
    try {
      for (const path of ["/readyz", "/healthz"]) {
        const answer = await callGateway(notReady.origin, "GET", path);
        assert.equal(answer.status, 503, path);
        assert.deepEqual(answer.json, { status: "not-ready" });
      }
    } finally {
      await notReady.close();
    }
  });
});

describe("gateway credential cache and key usage", () => {
  test("a revoked key is refused within 2 s (the cache holds a lookup at most 1 s)", async () => {
    const gw = await startGateway();
    try {
      const { key } = gw.access.addKey("org_r");
      const ok = await callGateway(gw.origin, "GET", "/v1/catalog", { headers: { "x-api-key": key } });
      assert.equal(ok.status, 200);
      gw.access.revoke(key, new Date(gw.clock.now()));
      gw.clock.advance(1_000);
      const refused = await callGateway(gw.origin, "GET", "/v1/catalog", { headers: { "x-api-key": key } });
      assertRefusal(refused, "EPX0002", 401);
    } finally {
      await gw.close();
    }
  });

  test("repeated calls within the cache time look a key up once", async () => {
    const gw = await startGateway();
    try {
      const { key } = gw.access.addKey("org_c");
      const before = gw.access.lookups;
      await Promise.all(
        Array.from({ length: 10 }, () =>
          callGateway(gw.origin, "GET", "/v1/catalog", { headers: { "x-api-key": key } }),
        ),
      );
      assert.equal(gw.access.lookups - before, 1);
    } finally {
      await gw.close();
    }
  });

  test("keys used are marked last-used in one batch", async () => {
    const gw = await startGateway();
    try {
      const a = gw.access.addKey("org_u");
      const b = gw.access.addKey("org_u");
      for (let i = 0; i < 5; i++) {
        await callGateway(gw.origin, "GET", "/v1/catalog", { headers: { "x-api-key": a.key } });
        await callGateway(gw.origin, "GET", "/v1/catalog", { headers: { "x-api-key": b.key } });
      }
      await gw.credentials.close();
      assert.equal(gw.access.usedBatches.length, 1);
      assert.deepEqual(gw.access.usedBatches[0]?.keyIds.sort(), [a.keyId, b.keyId].sort());
    } finally {
      await gw.close();
    }
  });

  test("a credential store that cannot answer is EPX0053 and the call never reaches the hub", async () => {
    const gw = await startGateway();
    try {
      const { key } = gw.access.addKey("org_d");
      gw.access.setDown(true);
      const answer = await callGateway(gw.origin, "GET", "/v1/catalog", { headers: { "x-api-key": key } });
      assertRefusal(answer, "EPX0053", 503);
      assert.equal(answer.json.message, undefined);
      assert.equal(gw.hub.calls.length, 0);
      gw.access.setDown(false);
      const ok = await callGateway(gw.origin, "GET", "/v1/catalog", { headers: { "x-api-key": key } });
      assert.equal(ok.status, 200);
    } finally {
      await gw.close();
    }
  });

  test("counters that cannot answer (Redis down) are EPX0053 and the call never reaches the hub", async () => {
    const failing = {
      take: async () => {
        throw new Error("Connection is closed.");
      },
      hit: async () => {
        throw new Error("Connection is closed.");
      },
      peek: async () => {
        throw new Error("Connection is closed.");
      },
      release: async () => {
        throw new Error("Connection is closed.");
      },
      hitSliding: async () => {
        throw new Error("Connection is closed.");
      },
      peekSliding: async () => {
        throw new Error("Connection is closed.");
      },
    };
    const gw = await startGateway({ counters: failing });
    try {
      const { key } = gw.access.addKey("org_e");
      const answer = await callGateway(gw.origin, "GET", "/v1/catalog", { headers: { "x-api-key": key } });
      assertRefusal(answer, "EPX0053", 503);
      assert.equal(gw.hub.calls.length, 0);
    } finally {
      await gw.close();
    }
  });
});
