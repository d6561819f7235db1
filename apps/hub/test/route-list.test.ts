import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { routeTable } from "@hub/contract";
import { createOperationRouter } from "../src/http/operation.js";
import { registerHubRoutes } from "../src/routes/hub-routes.js";
import { startTestHub } from "./hub-fixture.js";

describe("the route list", () => {
  test("registers every route of the route table, in the table's order", () => {
    const router = createOperationRouter();
    const services = { catalog: { catalog: {}, json: "{}" } } as unknown as Parameters<
      typeof registerHubRoutes
    >[1];
    registerHubRoutes(router, services);
    assert.deepEqual(
      router.operations.map(({ route }) => `${route.method} ${route.path}`),
      routeTable.map((route) => `${route.method} ${route.path}`),
    );
  });

  test("Fastify carries every route of the table under /v1", async () => {
    const hub = startTestHub();
    await hub.app.ready();
    for (const route of routeTable) {
      const url = `/v1${route.path.replace(/\{([A-Za-z]+)\}/g, ":$1")}`;
      assert.ok(hub.app.hasRoute({ method: route.method, url }), `${route.method} ${url}`);
    }
    await hub.close();
  });
});
