import type { Clock } from "@hub/clock";
import type { HubTransport } from "@hub/contract";
import type { Counters } from "@hub/counters";
import type { Logger } from "pino";
import type { CredentialResolver } from "../create-credential-resolver.js";
import type { UsageTally } from "../create-usage-tally.js";
import type { GatewayConfig } from "../gateway-config.js";
import type { GatewayMetrics } from "../gateway-metrics.js";

export interface ApiCallHandlerDeps {
  readonly config: GatewayConfig;
  readonly credentials: CredentialResolver;
  readonly counters: Counters;
  readonly transport: HubTransport;
  readonly metrics: GatewayMetrics;
  readonly logger: Logger;
  readonly clock: Clock;
  readonly usage: UsageTally | undefined;
}
