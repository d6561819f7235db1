import assert from "node:assert/strict";
import { connect } from "node:net";
import { after, describe, test } from "node:test";
import { createTestDatabases } from "@hub/store";
import { openDashboardFixture } from "./dashboard-fixture.js";

const databases = createTestDatabases({ databaseUrl: process.env.DATABASE_URL });
after(() => databases.dispose());

/** Opens a connection, writes `bytes` and resolves with how long the dashboard kept it open. */
function heldOpenMs(url: string, bytes: string, boundMs: number): Promise<number> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const startedAt = Date.now();
    const socket = connect(Number(port), hostname, () => socket.write(bytes));
    const bound = setTimeout(() => {
      socket.destroy();
      reject(new Error(`the dashboard still held the connection after ${boundMs} ms`));
    }, boundMs);
    socket.on("data", () => {});
    socket.on("error", () => {});
    socket.on("close", () => {
      clearTimeout(bound);
      resolve(Date.now() - startedAt);
    });
  });
}

describe("dashboard transport rules", () => {
  test("an HTTPS public origin makes every answer carry Strict-Transport-Security; an HTTP one never", async () => {
    const https = await openDashboardFixture(databases, "pglite", {
      publicOrigin: "https://dashboard.example",
    });
    try {
      for (const url of ["/sign-in", "/", "/nowhere", "/assets/dashboard.css", "/livez"]) {
        const answer = await https.request("GET", url);
        assert.equal(answer.headers["strict-transport-security"], "max-age=63072000", url);
      }
    } finally {
      await https.close();
    }
    const http = await openDashboardFixture(databases, "pglite");
    try {
      for (const url of ["/sign-in", "/", "/livez"]) {
        const answer = await http.request("GET", url);
        assert.equal(answer.headers["strict-transport-security"], undefined, url);
      }
    } finally {
      await http.close();
    }
  });

  test("a client that never finishes its request head, or its body, is cut off at the dashboard's timeouts", async () => {
    const f = await openDashboardFixture(
      databases,
      "pglite",
      { timeouts: { headersMs: 400, requestMs: 1200 } },
      { listen: true },
    );
    try {
      const headMs = await heldOpenMs(f.url, "GET /sign-in HTTP/1.1\r\nHost: x\r\n", 5_000);
      assert.ok(headMs >= 350 && headMs < 3_000, `head held ${headMs} ms`);
      const bodyMs = await heldOpenMs(
        f.url,
        "POST /sign-in HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 100\r\n\r\nemail=",
        6_000,
      );
      assert.ok(bodyMs >= 1_100 && bodyMs < 4_000, `body held ${bodyMs} ms`);
      assert.equal(f.dashboard.app.server.keepAliveTimeout, 72_000);
    } finally {
      await f.close();
    }
  });

  test("the default timeouts are the gateway's order of magnitude: 10 s for a head, 30 s for a request", async () => {
    const f = await openDashboardFixture(databases, "pglite");
    try {
      const server = f.dashboard.app.server;
      assert.equal(server.headersTimeout, 10_000);
      assert.equal(server.requestTimeout, 30_000);
      assert.equal(server.keepAliveTimeout, 72_000);
    } finally {
      await f.close();
    }
  });
});
