import assert from "node:assert/strict";
import type { AddressInfo } from "node:net";
import type { DevnetAccount, DevnetChain, DevnetManifest } from "@hub/chain";
import { systemClock } from "@hub/clock";
import Fastify, { type FastifyInstance } from "fastify";
import { pino } from "pino";
import { request } from "undici";
import type { Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { createAggregator } from "../src/aggregator/aggregator.js";
import { encodeInteropAddress } from "../src/aggregator/interop-address.js";
import type { OrderResponse } from "../src/aggregator/oif-order.js";
import { evmOrderPayload, type QuoteResponse, type QuotesResponse } from "../src/aggregator/oif-quote.js";
import { registerAggregatorRoutes } from "../src/aggregator/register-aggregator-routes.js";
import { startDevnetChains } from "../src/chains/index.js";
import { type Committee, createCommittee } from "../src/committee/index.js";
import { type ChainClients, createChainClients } from "../src/create-chain-clients.js";
import { createFaultKnobs, type FaultKnobs } from "../src/faults/fault-knobs.js";
import { registerFaultControlRoutes } from "../src/faults/register-fault-control-routes.js";
import { registerSolverRoutes } from "../src/solver/register-solver-routes.js";
import { createSolver, type Solver } from "../src/solver/solver.js";

export const integritySecret = "devnet-aggregator-test-secret";

/** Two chains, the committee, two solvers (alpha: fast and dear, beta: slow and cheap) and the aggregator on one server. */
export interface AggregatorDevnet {
  manifest: DevnetManifest;
  origin: DevnetChain;
  destination: DevnetChain;
  clients: ChainClients;
  committee: Committee;
  faults: FaultKnobs;
  solvers: { alpha: Solver; beta: Solver };
  baseUrl: string;
  app: FastifyInstance;
  stop(): Promise<void>;
}

export async function startAggregatorDevnet(): Promise<AggregatorDevnet> {
  const chains = await startDevnetChains();
  const stops: Array<() => Promise<void>> = [() => chains.stop()];
  const stop = async () => {
    for (const step of stops.reverse()) await step();
  };
  try {
    const { manifest } = chains;
    const clock = systemClock;
    const clients = createChainClients(manifest);
    const committee = createCommittee(
      { manifest, delayMs: 100, pollIntervalMs: 100 },
      { clients, clock, logger: pino({ level: "silent" }) },
    );
    const faults = createFaultKnobs({ solverIds: ["alpha", "beta"] });
    const common = { manifest, clock, faults, pollIntervalMs: 100 };
    const alpha = createSolver({
      ...common,
      id: "alpha",
      account: manifest.solvers[0]!,
      spreadBps: 30,
      quoteLatencyMs: 0,
      etaSeconds: 30,
    });
    const beta = createSolver({
      ...common,
      id: "beta",
      account: manifest.solvers[1]!,
      spreadBps: 10,
      quoteLatencyMs: 150,
      etaSeconds: 90,
    });
    let baseUrl = "";
    const aggregator = createAggregator({
      solvers: [
        { solverId: "alpha", name: "Alpha", baseUrl: () => `${baseUrl}/solvers/alpha/api/v1` },
        { solverId: "beta", name: "Beta", baseUrl: () => `${baseUrl}/solvers/beta/api/v1` },
      ],
      integritySecret,
      // Generous for a loaded CI machine; the latency knob test goes above solverTimeoutMs.
      solverTimeoutMs: 3000,
      globalTimeoutMs: 5000,
      orderTimeoutMs: 5000,
      refreshTimeoutMs: 3000,
      clock,
    });
    const app = Fastify();
    registerSolverRoutes(app, { prefix: "/solvers/alpha", solver: alpha, faults });
    registerSolverRoutes(app, { prefix: "/solvers/beta", solver: beta, faults });
    registerAggregatorRoutes(app, { prefix: "/aggregator", aggregator, faults, clock });
    registerFaultControlRoutes(app, { faults });
    await app.listen({ host: "127.0.0.1", port: 0 });
    stops.push(() => app.close());
    baseUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    await alpha.start();
    stops.push(() => alpha.stop());
    await beta.start();
    stops.push(() => beta.stop());
    committee.start();
    stops.push(() => committee.stop());
    return {
      manifest,
      origin: manifest.chains[0]!,
      destination: manifest.chains[1]!,
      clients,
      committee,
      faults,
      solvers: { alpha, beta },
      baseUrl,
      app,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

export async function call(
  baseUrl: string,
  method: "GET" | "POST" | "DELETE",
  path: string,
  body?: unknown,
): Promise<{ status: number; body: unknown; text: string; headers: Record<string, unknown> }> {
  const response = await request(`${baseUrl}${path}`, {
    method,
    headers: body === undefined ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(10_000),
  });
  const text = await response.body.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: response.statusCode, body: parsed, text, headers: response.headers };
}

export type AssetKind = "usdc" | "token" | "wrappedNative";

/** An OIF quote request for bridging `amount` of one declared asset from origin to destination. */
export function quoteRequest(
  devnet: Pick<AggregatorDevnet, "origin" | "destination">,
  user: DevnetAccount,
  kind: AssetKind,
  amount: bigint,
  extra: { supportedTypes?: string[]; schemes?: string[]; reverse?: boolean } = {},
) {
  const origin = extra.reverse ? devnet.destination : devnet.origin;
  const destination = extra.reverse ? devnet.origin : devnet.destination;
  return {
    user: encodeInteropAddress(origin.chainId, user.address),
    intent: {
      intentType: "oif-swap",
      inputs: [
        {
          user: encodeInteropAddress(origin.chainId, user.address),
          asset: encodeInteropAddress(origin.chainId, origin.contracts[kind]),
          amount: amount.toString(),
        },
      ],
      outputs: [
        {
          receiver: encodeInteropAddress(destination.chainId, user.address),
          asset: encodeInteropAddress(destination.chainId, destination.contracts[kind]),
        },
      ],
      swapType: "exact-input",
      ...(extra.schemes ? { originSubmission: { mode: "user", schemes: extra.schemes } } : {}),
    },
    supportedTypes: extra.supportedTypes ?? ["oif-escrow-v0"],
  };
}

/** Signs a quote's payload the way a wallet does with eth_signTypedData_v4: the JSON as it came. */
export function signPayload(user: DevnetAccount, quote: QuoteResponse): Promise<Hex> {
  const payload = evmOrderPayload(quote.order);
  return privateKeyToAccount(user.privateKey).signTypedData({
    domain: payload.domain,
    types: payload.types,
    primaryType: payload.primaryType,
    message: payload.message,
  } as unknown as Parameters<ReturnType<typeof privateKeyToAccount>["signTypedData"]>[0]);
}

export async function getQuotes(
  devnet: Pick<AggregatorDevnet, "baseUrl">,
  body: unknown,
): Promise<QuotesResponse> {
  const answer = await call(devnet.baseUrl, "POST", "/aggregator/api/v1/quotes", body);
  assert.equal(answer.status, 200, answer.text);
  return answer.body as QuotesResponse;
}

/** Quotes USDC over EIP-3009 from one solver and signs it; no approval needed, so tests can place many. */
export async function signedEip3009Quote(
  devnet: AggregatorDevnet,
  user: DevnetAccount,
  solverId: "alpha" | "beta",
  amount: bigint,
): Promise<{ quote: QuoteResponse; signature: Hex }> {
  const quotes = await getQuotes(
    devnet,
    quoteRequest(devnet, user, "usdc", amount, { supportedTypes: ["oif-3009-v0"], schemes: ["eip3009"] }),
  );
  const quote = quotes.quotes.find((q) => q.solverId === solverId);
  assert.ok(quote, `no quote from ${solverId}`);
  return { quote, signature: await signPayload(user, quote) };
}

export async function readOrder(devnet: AggregatorDevnet, orderId: string): Promise<OrderResponse> {
  const answer = await call(devnet.baseUrl, "GET", `/aggregator/api/v1/orders/${orderId}`);
  assert.equal(answer.status, 200, answer.text);
  return answer.body as OrderResponse;
}
