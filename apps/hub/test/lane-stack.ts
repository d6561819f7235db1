import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Clock } from "@hub/clock";
import type { CatalogChain, Envelope, ErrorCode } from "@hub/contract";
import { type ChainClients, createChainClients, createDevnet, type Devnet } from "@hub/devnet-app";
import { createTestDatabases, type TestDatabase } from "@hub/store";
import { pino } from "pino";
import { devnetProvider, type HubApp, type ProviderConfigInput } from "../src/index.js";
import { reconcilerChainsFromManifest } from "../src/reconciler/reconciler-chains-from-manifest.js";
import type { OifDialect } from "../src/providers/oif-aggregator/oif-dialects.js";
import { devnetExternalProvider } from "../src/providers/index.js";
import { startGatewayInFront } from "./gateway-in-front.js";
import { createTestHubApp, devnetControl } from "./hub-fixture.js";

/** One answer through the gateway, already held to the route's contract. */
export interface LaneAnswer {
  status: number;
  envelope: Envelope;
  text: string;
}

/** A wall clock moved forward by `skewMs`, so a test ages quotes without waiting. */
export interface SkewedClock extends Clock {
  skewMs: number;
}

function skewedClock(): SkewedClock {
  return {
    skewMs: 0,
    now() {
      return Date.now() + this.skewMs;
    },
  };
}

/**
 * One devnet, the hub on a real database with its reconciler over the devnet chains, and the real
 * gateway in process in front of it: everything a wallet meets, on 127.0.0.1.
 */
export interface LaneStack {
  devnet: Devnet;
  hub: HubApp;
  db: TestDatabase;
  chains: ChainClients;
  origin: CatalogChain;
  destination: CatalogChain;
  /** The hub's clock (quotes, submissions, the reconciler). */
  hubClock: SkewedClock;
  /** Every provider the hub quotes with. */
  providers: readonly ProviderConfigInput[];
  /** One call through the gateway with the organization's secret key. */
  api(
    method: "GET" | "POST",
    path: string,
    options?: { subject?: string; json?: unknown },
  ): Promise<LaneAnswer>;
  /** JSON to the devnet's control API; throws on a non-2xx. */
  control(method: "GET" | "POST" | "PUT" | "DELETE", path: string, body?: unknown): Promise<unknown>;
  stop(): Promise<void>;
}

const databases = createTestDatabases({ databaseUrl: process.env.DATABASE_URL });
export const disposeLaneDatabases = () => databases.dispose();

export interface LaneStackOptions {
  /** Hub configuration beyond the credential and an organization bucket no test reaches. */
  hubConfig?: Record<string, unknown>;
  /** The dialect of the devnet OIF aggregator the hub asks; the specification's by default. */
  dialect?: OifDialect;
}

export async function startLaneStack(options: LaneStackOptions = {}): Promise<LaneStack> {
  const logger = pino({ level: "silent" });
  const dataDir = await mkdtemp(join(tmpdir(), "hub-lane-devnet-"));
  const devnet = await createDevnet({
    port: 0,
    rpcPorts: [0, 0],
    dataDir,
    pollIntervalMs: 100,
    committeeDelayMs: 500,
    logger,
  });
  const db = await databases.open(process.env.DATABASE_URL ? "postgres" : "pglite");
  const hubClock = skewedClock();
  // Both upstreams of the devnet: the OIF aggregator of the dialect asked (id `devnet`) and the external one (`devnet-external`).
  const providers: ProviderConfigInput[] = [
    devnetProvider(devnet.url, { dialect: options.dialect ?? "oif-spec-1" }),
    devnetExternalProvider(devnet.url),
  ];
  const reconcilerChains = reconcilerChainsFromManifest(devnet.manifest);
  const hub = createTestHubApp({
    config: { organizationBucket: { ratePerSecond: 10_000, burst: 10_000 }, ...options.hubConfig },
    catalog: devnet.catalog,
    logger,
    clock: hubClock,
    sql: db.sql,
    providers,
    chains: reconcilerChains.map((chain) => ({ chainId: chain.chainId, rpcUrl: chain.rpcUrl })),
    reconciler: { chains: reconcilerChains, pollIntervalMs: 200 },
  });
  const gateway = await startGatewayInFront(hub, {
    sql: db.sql,
    organization: "lanes",
    timeoutMs: 20_000,
    logger,
  });
  const [origin, destination] = devnet.catalog.families.evm as [CatalogChain, CatalogChain];

  return {
    devnet,
    hub,
    db,
    chains: createChainClients(devnet.manifest),
    origin,
    destination,
    hubClock,
    providers,
    api: gateway.api,
    control: devnetControl(devnet.url),
    async stop() {
      await gateway.close();
      await hub.close();
      await db.dispose();
      try {
        await devnet.stop();
      } finally {
        await rm(dataDir, { recursive: true, force: true });
      }
    },
  };
}

/** The refusal's code and reference, failing with the whole answer when it is not a refusal. */
export function refusalOf(answer: LaneAnswer): { code: ErrorCode; reference?: string; message?: string } {
  assert.equal(answer.envelope.success, false, answer.text);
  const entry = answer.envelope.errors![0]!;
  return {
    code: entry.error_code as ErrorCode,
    ...(entry.error_reference === undefined ? {} : { reference: entry.error_reference }),
    ...(answer.envelope.message === undefined ? {} : { message: answer.envelope.message }),
  };
}

/** The data of a success, failing with the whole answer otherwise. */
export function dataOf<T>(answer: LaneAnswer): T {
  assert.equal(answer.envelope.success, true, answer.text);
  return answer.envelope.data as T;
}
