import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { DevnetManifest } from "@hub/chain";
import type { Clock } from "@hub/clock";
import Fastify, { type FastifyInstance } from "fastify";
import { pino } from "pino";
import { buildCatalog } from "../src/chains/build-catalog.js";
import { devnetAccounts } from "../src/chains/devnet-accounts.js";
import { devnetContractAddresses } from "../src/chains/plan-devnet-deployment.js";
import { createChainClients } from "../src/create-chain-clients.js";
import { createExternalAggregator } from "../src/external-aggregator/create-external-aggregator.js";
import type { ExternalQuote, ExternalTransferStatus } from "../src/external-aggregator/external-quote.js";
import { registerExternalAggregatorRoutes } from "../src/external-aggregator/register-external-aggregator-routes.js";
import { createRelayer } from "../src/relayer/create-relayer.js";

// Same-chain quotes and the refusals before the bridge's liquidity read touch no chain, so the
// manifest points at a port nothing listens on: a chain read would fail the test.
function offlineManifest(): DevnetManifest {
  const accounts = devnetAccounts();
  const contracts = devnetContractAddresses(accounts.deployer.address);
  return {
    chains: [31337, 31338].map((chainId) => ({
      chainDomain: `eip155:${chainId}`,
      chainId,
      rpcUrl: "http://127.0.0.1:9",
      contracts,
      deployBlock: 0,
    })),
    users: accounts.users,
    solvers: accounts.solvers,
    committee: { members: accounts.committee, threshold: 2 },
    relayer: accounts.relayer,
    deployer: accounts.deployer,
  };
}

describe("external aggregator quote kinds", () => {
  const manifest = offlineManifest();
  const [chainA, chainB] = manifest.chains;
  const user = manifest.users[0]!.address;
  const nowMs = Date.parse("2026-11-24T12:00:00.000Z");
  const clock: Clock = { now: () => nowMs };
  let app: FastifyInstance;

  const key = (chain: typeof chainA, name: "usdc" | "token" | "wrappedNative" | "undeclaredToken") =>
    `${chain!.chainDomain}/erc20:${chain!.contracts[name].toLowerCase()}`;

  before(async () => {
    const clients = createChainClients(manifest);
    const relayer = createRelayer(
      { manifest, feeBps: 10, pollIntervalMs: 1000 },
      { clients, logger: pino({ level: "silent" }) },
    );
    const externalAggregator = createExternalAggregator(
      { manifest, catalog: buildCatalog(manifest), feeBps: 10 },
      { clients, clock, relayer },
    );
    app = Fastify();
    registerExternalAggregatorRoutes(app, { prefix: "/external", externalAggregator });
    await app.ready();
  });
  after(async () => app.close());

  async function post(body: object) {
    const answer = await app.inject({ method: "POST", url: "/external/quote", payload: body });
    return { status: answer.statusCode, body: answer.json() };
  }

  test("two declared tokens on one chain quote a solver-swap of class INFINITY_SOLVER at parity scaled by decimals less the fee, with no executionTx or depositRef", async () => {
    const usdcToToken = await post({
      sourceAsset: key(chainA, "usdc"),
      destinationAsset: key(chainA, "token"),
      amount: "2000000",
      recipient: user,
      sourceAccount: user,
    });
    assert.equal(usdcToToken.status, 200, JSON.stringify(usdcToToken.body));
    const quote = usdcToToken.body as ExternalQuote;
    assert.equal(quote.kind, "solver-swap");
    assert.equal(quote.executionClass, "INFINITY_SOLVER");
    assert.equal(quote.amountIn, "2000000");
    // 2 USDC (6 decimals) is 2e18 TKN base units at parity; the 10 bps fee is 2e15.
    assert.equal(quote.feeAmount, (2n * 10n ** 15n).toString());
    assert.equal(quote.amountOut, (2n * 10n ** 18n - 2n * 10n ** 15n).toString());
    assert.equal(quote.feeBps, 10);
    assert.equal(quote.sourceAccount, user);
    assert.equal(quote.expiresAt, "2026-11-24T12:00:30.000Z");
    assert.equal("executionTx" in quote, false);
    assert.equal("depositRef" in quote, false);

    const tokenToUsdc = await post({
      sourceAsset: key(chainB, "token"),
      destinationAsset: key(chainB, "usdc"),
      amount: (10n ** 18n).toString(),
      recipient: user,
    });
    assert.equal(tokenToUsdc.status, 200);
    assert.equal(tokenToUsdc.body.kind, "solver-swap");
    assert.equal(tokenToUsdc.body.amountOut, "999000");
    assert.equal(tokenToUsdc.body.feeAmount, "1000");
  });

  test("one declared token to itself on one chain quotes a fee-free transfer of class TRANSFER with no executionTx", async () => {
    const answer = await post({
      sourceAsset: key(chainA, "wrappedNative"),
      destinationAsset: key(chainA, "wrappedNative"),
      amount: "123456789",
      recipient: manifest.users[1]!.address,
    });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    const quote = answer.body as ExternalQuote;
    assert.equal(quote.kind, "transfer");
    assert.equal(quote.executionClass, "TRANSFER");
    assert.equal(quote.amountIn, "123456789");
    assert.equal(quote.amountOut, "123456789");
    assert.equal(quote.feeAmount, "0");
    assert.equal(quote.feeBps, 0);
    assert.equal(quote.recipient, manifest.users[1]!.address);
    assert.equal("executionTx" in quote, false);
    assert.equal("depositRef" in quote, false);
    assert.equal("sourceAccount" in quote, false);
  });

  test("a solver-swap or transfer quote reads back as issued, and its status is not-completable", async () => {
    for (const destination of [key(chainA, "token"), key(chainA, "usdc")]) {
      const issued = await post({
        sourceAsset: key(chainA, "usdc"),
        destinationAsset: destination,
        amount: "5000000",
        recipient: user,
      });
      assert.equal(issued.status, 200);
      const { quoteId } = issued.body as ExternalQuote;
      const read = await app.inject({ method: "GET", url: `/external/quotes/${quoteId}` });
      assert.equal(read.statusCode, 200);
      assert.deepEqual(read.json(), issued.body);
      const status = await app.inject({ method: "GET", url: `/external/quotes/${quoteId}/status` });
      assert.equal(status.statusCode, 200);
      assert.deepEqual(status.json() as ExternalTransferStatus, { quoteId, state: "not-completable" });
    }
    const unknown = await app.inject({ method: "GET", url: "/external/quotes/xq_nothing/status" });
    assert.equal(unknown.statusCode, 404);
    assert.equal(unknown.json().error, "QUOTE_NOT_FOUND");
  });

  const refusals: { name: string; body: () => object; error: string; message: RegExp }[] = [
    {
      name: "an undeclared token on one chain",
      body: () => ({ sourceAsset: key(chainA, "undeclaredToken"), destinationAsset: key(chainA, "usdc") }),
      error: "NO_ROUTE",
      message: /declared/,
    },
    {
      name: "an undeclared destination token across chains",
      body: () => ({ sourceAsset: key(chainA, "usdc"), destinationAsset: key(chainB, "undeclaredToken") }),
      error: "NO_ROUTE",
      message: /declared/,
    },
    {
      name: "the native coin",
      body: () => ({
        sourceAsset: `${chainA!.chainDomain}/slip44:60`,
        destinationAsset: key(chainA, "usdc"),
      }),
      error: "NO_ROUTE",
      message: /declared/,
    },
    {
      name: "two different tokens across chains that are not counterparts",
      body: () => ({ sourceAsset: key(chainA, "usdc"), destinationAsset: key(chainB, "token") }),
      error: "NO_ROUTE",
      message: /counterpart/,
    },
    {
      name: "a bridge amount that does not cover the fee",
      body: () => ({ sourceAsset: key(chainA, "usdc"), destinationAsset: key(chainB, "usdc"), amount: "1" }),
      error: "NO_ROUTE",
      message: /fee/,
    },
    {
      name: "a solver-swap amount that does not cover the fee",
      body: () => ({
        sourceAsset: key(chainA, "token"),
        destinationAsset: key(chainA, "usdc"),
        amount: (10n ** 12n).toString(),
      }),
      error: "NO_ROUTE",
      message: /fee/,
    },
    {
      name: "a solver-swap amount under one base unit of the destination",
      body: () => ({
        sourceAsset: key(chainA, "token"),
        destinationAsset: key(chainA, "usdc"),
        amount: "999",
      }),
      error: "NO_ROUTE",
      message: /fee/,
    },
    {
      name: "an amount beyond uint256",
      body: () => ({
        sourceAsset: key(chainA, "usdc"),
        destinationAsset: key(chainA, "token"),
        amount: "9".repeat(78),
      }),
      error: "VALIDATION_ERROR",
      message: /uint256/,
    },
  ];
  for (const refusal of refusals) {
    test(`quoting ${refusal.name} is refused 400 ${refusal.error}`, async () => {
      const answer = await post({ amount: "1000000", recipient: user, ...refusal.body() });
      assert.equal(answer.status, 400, JSON.stringify(answer.body));
      assert.equal(answer.body.error, refusal.error);
      assert.match(answer.body.message, refusal.message);
    });
  }
});
