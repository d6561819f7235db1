import assert from "node:assert/strict";
import type { Catalog, HubAnswer } from "@hub/contract";
import { createTestDatabases, type TestDatabase } from "@hub/store";
import { pino } from "pino";
import type { HubApp, HubAppDeps, HubConfigInput } from "../src/index.js";
import type { ProviderConfigInput } from "../src/providers/index.js";
import { call, createTestHubApp, envelopeOf } from "./hub-fixture.js";

export interface QuoteHub extends HubApp {
  db: TestDatabase;
  logLines: string[];
  /** POST one quote route as an organization and subject; resolves to the envelope. */
  post(
    path: "/v1/quote" | "/v1/quote/preview" | "/v1/quote/prepare",
    body: unknown,
    who?: { org?: string; subject?: string },
  ): Promise<{ answer: HubAnswer; envelope: ReturnType<typeof envelopeOf> }>;
  /** The value of one Prometheus sample the operator listener serves, 0 when absent. */
  metric(name: string, labels: Record<string, string>): Promise<number>;
  stop(): Promise<void>;
}

const databases = createTestDatabases({ databaseUrl: process.env.DATABASE_URL });

/** Removes the test databases' template dir; call once after a suite. */
export const disposeQuoteDatabases = () => databases.dispose();

/** A hub with a real database, real providers and the given catalog, on the system clock. */
export async function startQuoteHub(options: {
  catalog: Catalog;
  providers: ProviderConfigInput[];
  config?: Partial<HubConfigInput>;
  solanaChains?: HubAppDeps["solanaChains"];
}): Promise<QuoteHub> {
  const db = await databases.open(process.env.DATABASE_URL ? "postgres" : "pglite");
  const logLines: string[] = [];
  const hub = createTestHubApp({
    config: { organizationBucket: { ratePerSecond: 10_000, burst: 10_000 }, ...options.config },
    catalog: options.catalog,
    logger: pino({ level: "info" }, { write: (line: string) => logLines.push(line) }),
    sql: db.sql,
    providers: options.providers,
    ...(options.solanaChains ? { solanaChains: options.solanaChains } : {}),
  });
  return {
    ...hub,
    db,
    logLines,
    async post(path, body, who = {}) {
      const answer = await call(hub, "POST", path, {
        headers: { "x-service-org": who.org ?? "org_quotes", "x-service-subject": who.subject ?? "user-1" },
        json: body,
      });
      return { answer, envelope: envelopeOf(answer) };
    },
    async metric(name, labels) {
      const text = await hub.metrics.metrics();
      const wanted = Object.entries(labels)
        .map(([key, value]) => `${key}="${value}"`)
        .sort();
      for (const line of text.split("\n")) {
        const match = /^([a-z_]+)\{([^}]*)\} (\S+)$/.exec(line);
        if (!match || match[1] !== name) continue;
        const have = match[2]!.split(",").sort();
        if (wanted.every((pair) => have.includes(pair))) return Number(match[3]);
      }
      return 0;
    },
    async stop() {
      await hub.close();
      await db.dispose();
    },
  };
}

/** The data of a successful answer; fails the test with the answer otherwise. */
export function dataOf(result: { answer: HubAnswer; envelope: ReturnType<typeof envelopeOf> }): unknown {
  assert.equal(result.envelope.success, true, result.answer.body.toString());
  return result.envelope.data;
}
