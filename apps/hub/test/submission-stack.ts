import assert from "node:assert/strict";
import { type Admin, createAdmin } from "@hub/admin";
import {
  type CatalogChain,
  type ErrorCode,
  hubOrderId,
  type QuoteWinner,
  quoteWinnerSchema,
} from "@hub/contract";
import { createMemoryCounters } from "@hub/counters";
import { type ChainClients, createChainClients } from "@hub/devnet-app";
import { createAccessStore, createTestDatabases, type TestDatabase } from "@hub/store";
import { pino } from "pino";
import { type Hex, maxUint256, parseAbi } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { createReservationBook, type HubApp } from "../src/index.js";
import { devnetAggregatorPaths, type OifDialect } from "../src/providers/index.js";
import { startGatewayInFront } from "./gateway-in-front.js";
import { createTestHubApp, type envelopeOf } from "./hub-fixture.js";
import { startUpstreamProxy, type UpstreamProxy } from "./submission-upstream-proxy.js";
import type { HubTestDevnet } from "./upstream-devnet.js";

const PERMIT2 = "0x000000000022D473030F116dDEE9F6B43aC78BA3";

export interface Answer {
  status: number;
  envelope: ReturnType<typeof envelopeOf>;
  text: string;
}

export interface User {
  address: Hex;
  privateKey: Hex;
}

/** A hub on a real database behind the real gateway, forwarding to the devnet's aggregator of one dialect through a counting proxy. */
export interface SubmissionStack {
  hub: HubApp;
  db: TestDatabase;
  proxy: UpstreamProxy;
  admin: Admin;
  /** The hub's clock: the wall clock moved forward by `skewMs` (expiry without waiting). */
  clock: { now(): number; skewMs: number };
  origin: CatalogChain;
  destination: CatalogChain;
  chains: ChainClients;
  /** One call through the gateway with the organization's key; every answer held to the route contract. */
  api(method: "GET" | "POST", path: string, options?: { subject?: string; json?: unknown }): Promise<Answer>;
  stop(): Promise<void>;
}

const databases = createTestDatabases({ databaseUrl: process.env.DATABASE_URL });
export const disposeSubmissionDatabases = () => databases.dispose();

export async function startSubmissionStack(
  devnet: HubTestDevnet,
  options: { gatewayTimeoutMs: number; providerTimeoutMs: number; dialect: OifDialect },
): Promise<SubmissionStack> {
  const db = await databases.open(process.env.DATABASE_URL ? "postgres" : "pglite");
  const proxy = await startUpstreamProxy(`${devnet.url}${devnetAggregatorPaths[options.dialect]}`);
  const logger = pino({ level: "silent" });
  const counters = createMemoryCounters({});
  const clock = {
    skewMs: 0,
    now() {
      return Date.now() + this.skewMs;
    },
  };
  const hub = createTestHubApp({
    // Some suites move the devnet's chain clocks a day or more ahead (an order past its deadline),
    // and the solvers date deadlines by the chain's clock while vetting bounds them by the hub's:
    // a week's bound keeps later quotes of such a suite passing (quote-deadline-bound tests the bound).
    config: {
      organizationBucket: { ratePerSecond: 10_000, burst: 10_000 },
      quoteMaxDeadlineMs: 7 * 86_400_000,
    },
    catalog: devnet.catalog,
    counters,
    clock,
    sql: db.sql,
    // The proxy lanes price through the swap router on chain.
    chains: devnet.manifest.chains.map((chain) => ({ chainId: chain.chainId, rpcUrl: chain.rpcUrl })),
    providers: [
      {
        id: "devnet",
        kind: "oif-aggregator",
        dialect: options.dialect,
        baseUrl: proxy.url,
        timeoutMs: options.providerTimeoutMs,
      },
    ],
  });
  const gateway = await startGatewayInFront(hub, {
    sql: db.sql,
    organization: "submissions",
    timeoutMs: options.gatewayTimeoutMs,
    logger,
    counters,
  });
  const [origin, destination] = devnet.catalog.families.evm as [CatalogChain, CatalogChain];

  return {
    hub,
    db,
    proxy,
    admin: createAdmin({
      store: createAccessStore(db.sql),
      reservations: createReservationBook(db.sql),
      clock,
    }),
    clock,
    origin,
    destination,
    chains: createChainClients(devnet.manifest),
    api: gateway.api,
    async stop() {
      await gateway.close();
      await hub.close();
      await proxy.close();
      await db.dispose();
    },
  };
}

/** The refusal's code, failing with the whole answer when it is not a refusal. */
export function codeOf(answer: Answer): ErrorCode {
  assert.equal(answer.envelope.success, false, answer.text);
  return answer.envelope.errors![0]!.error_code as ErrorCode;
}

/** Quotes `symbol` from the origin to the destination chain for a user, as subject. */
export async function quoteFor(
  stack: SubmissionStack,
  user: User,
  subject: string,
  symbol: "USDC" | "TKN",
  amount: string,
): Promise<QuoteWinner> {
  const key = (chain: CatalogChain) => chain.assets.find((asset) => asset.symbol === symbol)!.key;
  const answer = await stack.api("POST", "/v1/quote", {
    subject,
    json: {
      sourceAsset: key(stack.origin),
      destinationAsset: key(stack.destination),
      amount,
      recipient: user.address,
      sourceAccount: user.address,
    },
  });
  assert.equal(answer.envelope.success, true, answer.text);
  return quoteWinnerSchema.parse(answer.envelope.data);
}

/** What a wallet signs for the winner, in the form the spec gives for its lane. */
export async function signWinner(user: User, winner: QuoteWinner): Promise<string> {
  const wrapped = winner.lane === "aggregator-gasless";
  const typed = (wrapped ? (winner.signPayload as { payload: unknown }).payload : winner.signPayload) as {
    domain: Record<string, unknown>;
    types: Record<string, unknown>;
    primaryType: string;
    message: Record<string, unknown>;
  };
  const { EIP712Domain: _domain, ...types } = typed.types;
  const signature = await privateKeyToAccount(user.privateKey).signTypedData({
    domain: typed.domain,
    types,
    primaryType: typed.primaryType,
    message: typed.message,
  } as never);
  return wrapped ? signature : `0x00${signature.slice(2)}`;
}

/** POST /order/openfor of the winner, signed by the user as its lane asks. */
export async function postSignedOpenFor(
  stack: SubmissionStack,
  user: User,
  subject: string,
  winner: QuoteWinner,
): Promise<Answer> {
  return stack.api("POST", "/v1/order/openfor", {
    subject,
    json: {
      quoteRequestId: winner.quoteRequestId,
      quoteId: winner.quoteId,
      signature: await signWinner(user, winner),
    },
  });
}

/** Lets Permit2 move the user's token on the origin chain (the Permit2 lane's one approval). */
export async function approvePermit2(
  stack: SubmissionStack,
  user: User,
  symbol: "USDC" | "TKN",
): Promise<void> {
  const client = stack.chains.get(stack.origin.chainId);
  const token = stack.origin.assets.find((asset) => asset.symbol === symbol)!.address as Hex;
  const hash = await client.wallet(user).writeContract({
    address: token,
    abi: parseAbi(["function approve(address spender, uint256 amount) returns (bool)"]),
    functionName: "approve",
    args: [PERMIT2, maxUint256],
  });
  await client.publicClient.waitForTransactionReceipt({ hash });
}

/** The hubOrderId of a winner. */
export const hubOrderIdOf = (winner: QuoteWinner) => hubOrderId(winner.quoteId);
