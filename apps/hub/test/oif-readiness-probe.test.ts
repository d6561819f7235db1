import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, test } from "node:test";
import { createOifAggregatorClient, devnetProvider } from "../src/providers/index.js";

// An upstream in the specification's dialect routes /v1/quotes, /v1/orders and /v1/orders/{id} only:
// the specification names no health route, so /health is a 404 like any other unknown path.
let server: Server;
let status = 404;
let baseUrl: string;
before(async () => {
  server = createServer((_request, response) => {
    response.writeHead(status, { "content-type": "application/json" });
    response.end('{"error":"NOT_FOUND"}');
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(() => new Promise<void>((resolve) => server.close(() => resolve())));

test("an upstream in the specification's dialect is ready while it answers below 500, as it has no health route", async () => {
  const client = createOifAggregatorClient(devnetProvider(baseUrl, { dialect: "oif-spec-1", baseUrl }));
  try {
    status = 404;
    assert.equal(await client.ready(AbortSignal.timeout(2000)), undefined);
    status = 503;
    assert.equal(await client.ready(AbortSignal.timeout(2000)), "the upstream answered HTTP 503");
  } finally {
    await client.close();
  }
});

test("an upstream in the reference aggregator's dialect is ready only while its /health answers 2xx", async () => {
  const client = createOifAggregatorClient(devnetProvider(baseUrl, { dialect: "oif-aggregator", baseUrl }));
  try {
    status = 404;
    assert.equal(await client.ready(AbortSignal.timeout(2000)), "the upstream answered HTTP 404");
    status = 200;
    assert.equal(await client.ready(AbortSignal.timeout(2000)), undefined);
  } finally {
    await client.close();
  }
});
