import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { createMemoryCounters } from "@hub/counters";
import { createTestHubApp, quoteBody } from "@hub/hub-app/test-harness";
import { createInProcessHubTransport, projectPoolRule } from "../src/index.js";
import { assertRefusal, callGateway } from "./fixtures/call-gateway.js";
import { HUB_SECRET, manualClock, startGateway } from "./fixtures/start-gateway.js";

describe("the project pool is a share of the hub's per-organization rate", () => {
  test("projectPoolRule takes the share of the hub's rate and of its burst (rounded down, at least 1), in quotes, times a quote's cost", () => {
    const rows = [
      { hub: { ratePerSecond: 5, burst: 20 }, share: 0.5, cost: 1, pool: { ratePerSecond: 2.5, burst: 10 } },
      { hub: { ratePerSecond: 10, burst: 20 }, share: 0.5, cost: 1, pool: { ratePerSecond: 5, burst: 10 } },
      { hub: { ratePerSecond: 5, burst: 3 }, share: 0.5, cost: 1, pool: { ratePerSecond: 2.5, burst: 1 } },
      { hub: { ratePerSecond: 5, burst: 1 }, share: 0.1, cost: 1, pool: { ratePerSecond: 0.5, burst: 1 } },
      { hub: { ratePerSecond: 5, burst: 20 }, share: 1, cost: 1, pool: { ratePerSecond: 5, burst: 20 } },
      {
        hub: { ratePerSecond: 5, burst: 20 },
        share: 0.5,
        cost: 120,
        pool: { ratePerSecond: 300, burst: 1200 },
      },
      { hub: { ratePerSecond: 5, burst: 1 }, share: 0.1, cost: 120, pool: { ratePerSecond: 60, burst: 120 } },
    ];
    for (const row of rows) assert.deepEqual(projectPoolRule(row.hub, row.share, row.cost), row.pool);
  });

  test("an anonymous flood of quotes from many visitors of a project id, at the default quote cost, cannot make the key holder's calls within the other half shed at the hub", async () => {
    const clock = manualClock(Date.now());
    const hubBucket = { ratePerSecond: 10, burst: 20 };
    const hub = createTestHubApp({
      config: { gatewayCredential: HUB_SECRET, organizationBucket: hubBucket },
      counters: createMemoryCounters({}, { clock }),
      clock,
    });
    const gw = await startGateway({
      clock,
      transport: () => createInProcessHubTransport(hub),
      config: { hubOrganizationBucket: hubBucket, projectShare: 0.5, trustedProxies: ["127.0.0.1/32"] },
    });
    try {
      const page = "https://wallet.example";
      const key = gw.access.addKey("org_share").key;
      const projectId = gw.access.addProject("org_share", [page]);
      const quote = (headers: Record<string, string>) =>
        callGateway(gw.origin, "POST", "/v1/quote", {
          headers: { "content-type": "application/json", "x-service-subject": "user-1", ...headers },
          body: JSON.stringify(quoteBody()),
        });
      let visitor = 0;
      const flood = async (calls: number) => {
        let reachedHub = 0;
        for (let i = 0; i < calls; i++) {
          visitor += 1;
          const answer = await quote({
            "x-project-id": projectId,
            origin: page,
            "x-forwarded-for": `198.51.${Math.floor(visitor / 250)}.${visitor % 250}`,
          });
          if (answer.json.errors[0].error_code === "EIN0008") reachedHub += 1;
          else assertRefusal(answer, "EPX0080", 429);
        }
        return reachedHub;
      };
      const keyCalls = async (calls: number) => {
        for (let i = 0; i < calls; i++) {
          const answer = await quote({ "x-api-key": key });
          assert.equal(answer.status, 400);
          assert.equal(
            answer.json.errors[0].error_code,
            "EIN0008",
            "the hub charged the key's call, not shed it",
          );
        }
      };

      assert.equal(await flood(30), 10, "the visitors together get the pool's burst, half the hub's");
      await keyCalls(10);
      for (let second = 0; second < 5; second++) {
        clock.advance(1_000);
        assert.equal(await flood(30), 5, "the visitors together get half the hub's rate");
        await keyCalls(5);
      }
    } finally {
      await gw.close();
      await hub.close();
    }
  });
});
