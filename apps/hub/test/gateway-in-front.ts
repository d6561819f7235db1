import { createAdmin } from "@hub/admin";
import { type Counters, createMemoryCounters } from "@hub/counters";
import { createCredentialResolver, createGatewayApp, createInProcessHubTransport } from "@hub/gateway-app";
import { createAccessStore, type SqlClient } from "@hub/store";
import type { Logger } from "pino";
import type { HubApp } from "../src/index.js";
import { GATEWAY_SECRET, gatewayCaller } from "./hub-fixture.js";

export interface GatewayInFront {
  url: string;
  /** The organization's secret key (`x-api-key`). */
  key: string;
  /** One call through the gateway with the key; every answer held to the route contract. */
  api: ReturnType<typeof gatewayCaller>;
  close(): Promise<void>;
}

/**
 * The real gateway, in process, in front of a hub made by createTestHubApp, on 127.0.0.1: one new
 * organization with one secret key in the hub's database.
 */
export async function startGatewayInFront(
  hub: HubApp,
  options: { sql: SqlClient; organization: string; timeoutMs: number; logger: Logger; counters?: Counters },
): Promise<GatewayInFront> {
  const accessStore = createAccessStore(options.sql);
  const admin = createAdmin({ store: accessStore });
  const { organization } = await admin.createOrganization({ name: options.organization });
  const { key } = (await admin.createKey({ orgId: organization.orgId })).apiKey;
  const credentials = createCredentialResolver({}, { store: accessStore, logger: options.logger });
  const transport = createInProcessHubTransport(hub);
  const gateway = createGatewayApp({
    config: { hubCredential: GATEWAY_SECRET, timeoutMs: options.timeoutMs },
    credentials,
    counters: options.counters ?? createMemoryCounters({}),
    transport,
    logger: options.logger,
  });
  const url = await gateway.listen({ host: "127.0.0.1", port: 0 });
  return {
    url,
    key,
    api: gatewayCaller(url, key),
    async close() {
      await gateway.close();
      await credentials.close();
      await transport.close();
    },
  };
}
