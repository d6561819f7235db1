import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { assertRefusal, callGateway } from "./fixtures/call-gateway.js";
import { counterBackends, manualClock, startGateway } from "./fixtures/start-gateway.js";

for (const backend of counterBackends) {
  describe(`gateway pools and lockout (${backend.name} counters)`, { skip: backend.skip }, () => {
    test("all keys of an organization share one pool; past it EPX0080 with error_params[0] ms and Retry-After s", async () => {
      const gw = await startGateway({
        backend: backend.name,
        clock: manualClock(),
        config: { organizationPool: { ratePerSecond: 2, burst: 3 } },
      });
      try {
        const a = gw.access.addKey("org_p").key;
        const b = gw.access.addKey("org_p").key;
        const other = gw.access.addKey("org_q").key;
        const remaining: string[] = [];
        for (const key of [a, b, a]) {
          const answer = await callGateway(gw.origin, "GET", "/v1/catalog", {
            headers: { "x-api-key": key },
          });
          assert.equal(answer.status, 200);
          assert.equal(answer.headers["ratelimit-limit"], "3");
          remaining.push(answer.headers["ratelimit-remaining"] as string);
        }
        assert.deepEqual(remaining, ["2", "1", "0"]);
        const refused = await callGateway(gw.origin, "GET", "/v1/catalog", { headers: { "x-api-key": b } });
        assertRefusal(refused, "EPX0080", 429);
        assert.deepEqual(refused.json.errors[0].error_params, ["500"]);
        assert.equal(refused.headers["retry-after"], "1");
        assert.equal(refused.json.message, undefined);
        assert.equal(refused.headers["ratelimit-remaining"], "0");
        const elsewhere = await callGateway(gw.origin, "GET", "/v1/catalog", {
          headers: { "x-api-key": other },
        });
        assert.equal(elsewhere.status, 200);
        gw.clock.advance(500);
        const back = await callGateway(gw.origin, "GET", "/v1/catalog", { headers: { "x-api-key": b } });
        assert.equal(back.status, 200);
      } finally {
        await gw.close();
      }
    });

    test("a project id has a pool for the project and a bucket per visitor IP; the visitor's is EPX0082", async () => {
      const gw = await startGateway({
        backend: backend.name,
        clock: manualClock(),
        config: {
          projectPool: { ratePerSecond: 1, burst: 10 },
          visitorBucket: { ratePerSecond: 1, burst: 2 },
          projectQuoteCost: 1,
        },
      });
      try {
        const projectId = gw.access.addProject("org_v");
        const first = await callGateway(gw.origin, "GET", "/v1/catalog", {
          headers: { "x-project-id": projectId },
        });
        assert.equal(first.status, 200);
        // The tighter of the two buckets: the visitor's (1 of 2 left) rather than the project's (9 of 10).
        assert.equal(first.headers["ratelimit-limit"], "2");
        assert.equal(first.headers["ratelimit-remaining"], "1");
        await callGateway(gw.origin, "GET", "/v1/catalog", { headers: { "x-project-id": projectId } });
        const refused = await callGateway(gw.origin, "GET", "/v1/catalog", {
          headers: { "x-project-id": projectId },
        });
        assertRefusal(refused, "EPX0082", 429);
        assert.deepEqual(refused.json.errors[0].error_params, ["1000"]);
        assert.equal(refused.headers["retry-after"], "1");
      } finally {
        await gw.close();
      }
    });

    test("a spent project pool is EPX0080 for every visitor", async () => {
      const gw = await startGateway({
        backend: backend.name,
        clock: manualClock(),
        config: {
          projectPool: { ratePerSecond: 1, burst: 2 },
          visitorBucket: { ratePerSecond: 1, burst: 10 },
          projectQuoteCost: 1,
        },
      });
      try {
        const projectId = gw.access.addProject("org_w");
        for (let i = 0; i < 2; i++) {
          const ok = await callGateway(gw.origin, "GET", "/v1/catalog", {
            headers: { "x-project-id": projectId },
          });
          assert.equal(ok.status, 200);
        }
        const refused = await callGateway(gw.origin, "GET", "/v1/catalog", {
          headers: { "x-project-id": projectId },
        });
        assertRefusal(refused, "EPX0080", 429);
        assert.equal(refused.headers["ratelimit-limit"], "2");
      } finally {
        await gw.close();
      }
    });

    test("with a project id a quote or a submission costs projectQuoteCost in the visitor bucket and the project pool, a read 1", async () => {
      const gw = await startGateway({
        backend: backend.name,
        clock: manualClock(),
        config: {
          projectPool: { ratePerSecond: 1, burst: 12 },
          visitorBucket: { ratePerSecond: 1, burst: 10 },
          projectQuoteCost: 4,
          trustedProxies: ["127.0.0.1/32"],
        },
      });
      try {
        const projectId = gw.access.addProject("org_cost");
        const post = (path: string, visitor = "198.51.100.1") =>
          callGateway(gw.origin, "POST", `/v1${path}`, {
            headers: {
              "x-project-id": projectId,
              "content-type": "application/json",
              "x-service-subject": "v",
              "x-forwarded-for": visitor,
            },
            body: "{}",
          });
        const remaining = (answer: { status: number; headers: Record<string, string> }) => [
          answer.status,
          answer.headers["ratelimit-limit"],
          answer.headers["ratelimit-remaining"],
        ];
        // The visitor's bucket (10) is the tighter: a quote leaves 6, a read 5, an order 1.
        assert.deepEqual(remaining(await post("/quote")), [200, "10", "6"]);
        assert.deepEqual(
          remaining(
            await callGateway(gw.origin, "GET", "/v1/status/o-1", {
              headers: { "x-project-id": projectId, "x-forwarded-for": "198.51.100.1" },
            }),
          ),
          [200, "10", "5"],
        );
        assert.deepEqual(remaining(await post("/order/openfor")), [200, "10", "1"]);
        const refused = await post("/quote/preview");
        assertRefusal(refused, "EPX0082", 429);
        // Four tokens are needed and one is left: 3 s at 1/s.
        assert.deepEqual(refused.json.errors[0].error_params, ["3000"]);
        gw.clock.advance(3_000);
        // The project's pool paid for the three admitted calls only, not the refused one: 12 - 9 + 3
        // refilled = 6, so another visitor's quote leaves 2 (tighter than that visitor's 6).
        const again = await post("/quote/preview", "198.51.100.2");
        assert.equal(again.status, 200);
        assert.equal(again.headers["ratelimit-limit"], "12");
        assert.equal(again.headers["ratelimit-remaining"], "2");
      } finally {
        await gw.close();
      }
    });

    test("20 refused credentials in a minute lock the IP out (EPX0081, Retry-After only) until the oldest of them is a minute old, valid keys included", async () => {
      const clock = manualClock(60_000 * 29_000_000 + 15_000);
      const gw = await startGateway({ backend: backend.name, clock });
      try {
        const { key } = gw.access.addKey("org_l");
        const projectId = gw.access.addProject("org_l");
        const failures: Record<string, string>[] = [
          {},
          { "x-api-key": "svc_sk_nope" },
          { "x-api-key": `svc_sk_${"Z".repeat(43)}` },
          { "x-project-id": "proj_x" },
          { "x-project-id": `proj_${"Z".repeat(24)}` },
        ];
        for (let i = 0; i < 20; i++) {
          // Valid calls in between never count.
          const ok = await callGateway(gw.origin, "GET", "/v1/catalog", { headers: { "x-api-key": key } });
          assert.equal(ok.status, 200);
          const refused = await callGateway(gw.origin, "GET", "/v1/catalog", { headers: failures[i % 5] });
          assert.equal(refused.status, 401, `failure ${i + 1}`);
        }
        const locked = await callGateway(gw.origin, "GET", "/v1/catalog", { headers: { "x-api-key": key } });
        assertRefusal(locked, "EPX0081", 429);
        assert.equal(locked.headers["retry-after"], "60");
        assert.equal(locked.json.errors[0].error_params, undefined);
        const lockedProject = await callGateway(gw.origin, "GET", "/v1/catalog", {
          headers: { "x-project-id": projectId, origin: "https://x.example" },
        });
        assertRefusal(lockedProject, "EPX0081", 429);
        assert.equal(lockedProject.headers["access-control-allow-origin"], "https://x.example");
        clock.advance(59_000);
        assertRefusal(
          await callGateway(gw.origin, "GET", "/v1/catalog", { headers: { "x-api-key": key } }),
          "EPX0081",
          429,
        );
        clock.advance(1_000);
        const free = await callGateway(gw.origin, "GET", "/v1/catalog", { headers: { "x-api-key": key } });
        assert.equal(free.status, 200);
      } finally {
        await gw.close();
      }
    });

    test("a revoked key and an expired key never count toward the lockout; unknown keys do", async () => {
      const clock = manualClock();
      const gw = await startGateway({ backend: backend.name, clock });
      try {
        const { key } = gw.access.addKey("org_r");
        const revoked = gw.access.addKey("org_r", { revokedAt: new Date(clock.now() - 1000) }).key;
        const expired = gw.access.addKey("org_r", { expiresAt: new Date(clock.now() - 1000) }).key;
        for (let i = 0; i < 25; i++) {
          for (const bad of [revoked, expired]) {
            const refused = await callGateway(gw.origin, "GET", "/v1/catalog", {
              headers: { "x-api-key": bad },
            });
            assertRefusal(refused, "EPX0002", 401);
          }
        }
        const unknown = { "x-api-key": `svc_sk_${"U".repeat(43)}` };
        for (let i = 0; i < 19; i++) {
          assertRefusal(
            await callGateway(gw.origin, "GET", "/v1/catalog", { headers: unknown }),
            "EPX0002",
            401,
          );
        }
        const ok = await callGateway(gw.origin, "GET", "/v1/catalog", { headers: { "x-api-key": key } });
        assert.equal(ok.status, 200);
        assertRefusal(
          await callGateway(gw.origin, "GET", "/v1/catalog", { headers: unknown }),
          "EPX0002",
          401,
        );
        assertRefusal(
          await callGateway(gw.origin, "GET", "/v1/catalog", { headers: { "x-api-key": key } }),
          "EPX0081",
          429,
        );
      } finally {
        await gw.close();
      }
    });

    test("19 failures at the end of one minute and 19 at the start of the next lock the IP (a sliding minute)", async () => {
      const clock = manualClock(60_000 * 29_000_000 + 50_000);
      const gw = await startGateway({ backend: backend.name, clock });
      try {
        const { key } = gw.access.addKey("org_s");
        for (let i = 0; i < 19; i++) {
          assertRefusal(await callGateway(gw.origin, "GET", "/v1/catalog"), "EPX0001", 401);
        }
        clock.advance(15_000);
        const next: string[] = [];
        for (let i = 0; i < 19; i++) {
          next.push((await callGateway(gw.origin, "GET", "/v1/catalog")).json.errors[0].error_code);
        }
        // The 20th failure within 60 s locks; the rest of the 19 meet the lockout.
        assert.deepEqual(next, ["EPX0001", ...Array.from({ length: 18 }, () => "EPX0081")]);
        const locked = await callGateway(gw.origin, "GET", "/v1/catalog", { headers: { "x-api-key": key } });
        assertRefusal(locked, "EPX0081", 429);
        assert.equal(locked.headers["retry-after"], "45");
        clock.advance(44_999);
        assertRefusal(
          await callGateway(gw.origin, "GET", "/v1/catalog", { headers: { "x-api-key": key } }),
          "EPX0081",
          429,
        );
        clock.advance(1);
        const free = await callGateway(gw.origin, "GET", "/v1/catalog", { headers: { "x-api-key": key } });
        assert.equal(free.status, 200);
      } finally {
        await gw.close();
      }
    });

    test("IPv6 callers behind a trusted proxy share the lockout and the visitor bucket of their /64", async () => {
      const gw = await startGateway({
        backend: backend.name,
        clock: manualClock(),
        config: {
          trustedProxies: ["127.0.0.1/32"],
          visitorBucket: { ratePerSecond: 1, burst: 2 },
          projectQuoteCost: 1,
        },
      });
      try {
        const { key } = gw.access.addKey("org_six");
        const projectId = gw.access.addProject("org_six");
        const visitor = (address: string) => ({ "x-forwarded-for": address, "x-project-id": projectId });
        for (const address of ["2001:db8:1:2::1", "2001:db8:1:2:ffff::9"]) {
          assert.equal(
            (await callGateway(gw.origin, "GET", "/v1/catalog", { headers: visitor(address) })).status,
            200,
          );
        }
        assertRefusal(
          await callGateway(gw.origin, "GET", "/v1/catalog", { headers: visitor("2001:db8:1:2::abcd") }),
          "EPX0082",
          429,
        );
        assert.equal(
          (await callGateway(gw.origin, "GET", "/v1/catalog", { headers: visitor("2001:db8:1:3::1") }))
            .status,
          200,
        );
        for (let i = 0; i < 20; i++) {
          await callGateway(gw.origin, "GET", "/v1/catalog", {
            headers: { "x-forwarded-for": `2001:db8:9:9::${i + 1}` },
          });
        }
        assertRefusal(
          await callGateway(gw.origin, "GET", "/v1/catalog", {
            headers: { "x-forwarded-for": "2001:db8:9:9:1234::1", "x-api-key": key },
          }),
          "EPX0081",
          429,
        );
        const elsewhere = await callGateway(gw.origin, "GET", "/v1/catalog", {
          headers: { "x-forwarded-for": "2001:db8:9:a::1", "x-api-key": key },
        });
        assert.equal(elsewhere.status, 200);
      } finally {
        await gw.close();
      }
    });

    test("19 refused credentials do not lock out, and valid calls never count", async () => {
      const gw = await startGateway({ backend: backend.name, clock: manualClock() });
      try {
        const { key } = gw.access.addKey("org_n");
        for (let i = 0; i < 19; i++) await callGateway(gw.origin, "GET", "/v1/catalog");
        for (let i = 0; i < 30; i++) {
          const ok = await callGateway(gw.origin, "GET", "/v1/catalog", { headers: { "x-api-key": key } });
          assert.equal(ok.status, 200);
        }
      } finally {
        await gw.close();
      }
    });
  });
}
