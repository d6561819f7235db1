import assert from "node:assert/strict";
import { after, describe, test } from "node:test";
import type { OpenForAck } from "@hub/contract";
import { createTestDatabases } from "@hub/store";
import { callApi, createOrgWithKey, endHubProcess, startHubProcess } from "./hub-process.js";
import {
  assertForwardedAtMostOnce,
  devnetUpstreamEnv,
  type Post,
  quoteSignedOrders,
  repostEvery,
  submitAndKill,
} from "./submission-load.js";
import { startUpstreamProxy } from "./submission-upstream-proxy.js";
import { startHubTestDevnet } from "./upstream-devnet.js";

const databases = createTestDatabases({ databaseUrl: process.env.DATABASE_URL });
after(() => databases.dispose());

const SUBMISSIONS = 50;

/**
 * The quotes' lifetime, at the hub (HUB_QUOTE_LIFETIME_SECONDS) and at the devnet's solvers (their
 * validUntil): ten times the spec's 30 s, so that every quote outlives the restart however long a
 * loaded machine makes it (14 s has been seen), and the orders' on-chain deadlines (300 s to fill)
 * still bind after it.
 */
const QUOTE_LIFETIME_SECONDS = 240;

/** Where the calls go and with which key: without the devnet, start makes no organization. */
interface Caller {
  baseUrl: string;
  apiKey: string;
}

/** POSTs as the crash test's client. */
function postTo(caller: Caller): Post {
  return (path, json) =>
    callApi(caller.baseUrl, "POST", path, {
      headers: { "x-api-key": caller.apiKey, "x-service-subject": "crash-user" },
      json,
    });
}

for (const { driver, skip } of databases.drivers) {
  describe(`a hub killed in the middle of ${SUBMISSIONS} submissions (${driver})`, { skip }, () => {
    test("after restart every re-post answers the ack or EIN0052, each quote was forwarded at most once, and no ack is lost", async (t) => {
      const devnet = await startHubTestDevnet({
        solvers: [
          {
            id: "alpha",
            spreadBps: 30,
            quoteLatencyMs: 120,
            etaSeconds: 90,
            quoteValiditySeconds: QUOTE_LIFETIME_SECONDS,
          },
          {
            id: "beta",
            spreadBps: 50,
            quoteLatencyMs: 20,
            etaSeconds: 30,
            quoteValiditySeconds: QUOTE_LIFETIME_SECONDS,
          },
        ],
      });
      t.after(() => devnet.stop());
      const proxy = await startUpstreamProxy(`${devnet.url}/aggregator`);
      t.after(() => proxy.close());
      const target = await databases.prepareDataDir(driver);
      t.after(() => target.dispose());
      const env: NodeJS.ProcessEnv = {
        ...devnetUpstreamEnv(devnet, proxy.url, target.dataDir),
        HUB_DATA_DIR: target.dataDir,
        HUB_TENANT_RPS: "1000",
        HUB_TENANT_BURST: "1000",
        HUB_QUOTE_LIFETIME_SECONDS: String(QUOTE_LIFETIME_SECONDS),
      };
      if (target.databaseUrl) env.DATABASE_URL = target.databaseUrl;
      else delete env.DATABASE_URL;

      const first = startHubProcess(env);
      t.after(() => {
        first.child.kill("SIGKILL");
      });
      const started = await first.ready;
      assert.equal(started.apiKey, null, "a start without the devnet makes no development organization");
      assert.equal(started.dashboardSignInUrl, null, "nor a sign-in link");
      const dev: Caller = { baseUrl: started.baseUrl, apiKey: (await createOrgWithKey(env, "crash")).key };

      const post = postTo(dev);
      const orders = await quoteSignedOrders(devnet, SUBMISSIONS, post, 1_000_000);
      const acked = new Map<string, OpenForAck>();
      await submitAndKill(devnet, orders, post, acked, 10, () => endHubProcess(first, "SIGKILL"));

      const restartedAt = performance.now();
      const second = startHubProcess(env, dev.baseUrl);
      t.after(() => {
        second.child.kill("SIGKILL");
      });
      const restarted: Caller = { baseUrl: (await second.ready).baseUrl, apiKey: dev.apiKey };
      // A quote never reserved before the kill is forwarded after the restart only while it lives
      // (otherwise EIN0005, the right answer for an expired quote): QUOTE_LIFETIME_SECONDS outlasts it.
      const restartMs = Math.round(performance.now() - restartedAt);
      const marginMs = Math.min(...orders.map(({ winner }) => Date.parse(winner.expiresAt))) - Date.now();
      t.diagnostic(`restart to ready ${restartMs} ms; the oldest quote lives ${marginMs} ms more`);
      assert.ok(marginMs > 0, `the restart (${restartMs} ms) outlived the quotes`);

      const codes = await repostEvery(orders, acked, postTo(restarted));
      t.diagnostic(`acked before the kill ${acked.size}; after restart ${JSON.stringify(codes)}`);
      assertForwardedAtMostOnce(proxy);
      await endHubProcess(second, "SIGTERM");
    });
  });
}
