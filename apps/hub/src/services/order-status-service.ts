import type { Clock } from "@hub/clock";
import { HubError, type HubOrderStatus, type OrdersList, type UpstreamOrderStatus } from "@hub/contract";
import type { SqlClient } from "@hub/store";
import type { Logger } from "pino";
import { createHubStatusReader, type HubStatusReader } from "../open-flow/create-hub-status-reader.js";
import { listOrdersPage } from "../order-status/list-orders-page.js";
import { createOrderStatusReader, type OrderStatusReader } from "../order-status/read-order-status.js";
import { createChainFactsStore } from "../store/chain-facts-store.js";
import { createFollowedOrderStore } from "../store/followed-order-store.js";
import type { OrderReader } from "../providers/provider-kind.js";
import type { Caller } from "./caller.js";

export interface OrderStatusService {
  getOrderStatus(orderId: string, caller: Caller): Promise<UpstreamOrderStatus>;
  /** GET /status/{orderId}: an open-flow registration of the organization. */
  getHubStatus(orderId: string, organization: string): Promise<HubOrderStatus>;
  listOrders(caller: Caller, page: { cursor?: string; limit: number }): Promise<OrdersList>;
  /** Upstream order reads the status view started (the status benchmark counts them). */
  readonly upstreamReads: number;
}

export interface OrderStatusServiceDeps {
  /** Without a database no order was ever recorded: every id is unknown and every list empty. */
  sql?: SqlClient;
  upstreamOf: (providerId: string) => OrderReader | undefined;
  clock: Clock;
  logger: Pick<Logger, "debug" | "warn">;
  statusCacheMs: number;
  statusProjectionCapacity: number;
  statusProjectionIdleEvictMs: number;
  statusRefreshTimeoutMs: number;
}

const notFound = () => new HubError("EIN0009", { message: "Order not found." });

/** The upstream status view and the orders list of openFor orders; the hub status view of open-flow ones. */
export function createOrderStatusService(deps: OrderStatusServiceDeps): OrderStatusService {
  const { sql } = deps;
  const stores = sql && { orders: createFollowedOrderStore(sql), chainFacts: createChainFactsStore(sql) };
  const reader: OrderStatusReader | undefined =
    stores &&
    createOrderStatusReader({
      store: stores.orders,
      upstreamOf: deps.upstreamOf,
      clock: deps.clock,
      logger: deps.logger,
      cacheMs: deps.statusCacheMs,
      projectionCapacity: deps.statusProjectionCapacity,
      projectionIdleEvictMs: deps.statusProjectionIdleEvictMs,
      refreshTimeoutMs: deps.statusRefreshTimeoutMs,
    });
  const hubStatus: HubStatusReader | undefined =
    sql &&
    createHubStatusReader({
      sql,
      clock: deps.clock,
      cacheMs: deps.statusCacheMs,
      capacity: deps.statusProjectionCapacity,
    });
  return {
    async getOrderStatus(orderId, caller) {
      if (!reader) throw notFound();
      return reader.read(orderId, caller.organization, caller.subject);
    },
    async getHubStatus(orderId, organization) {
      if (!hubStatus) throw notFound();
      return hubStatus.read(orderId, organization);
    },
    async listOrders(caller, page) {
      if (!stores) return { subject: caller.subject, orders: [], nextCursor: null };
      return listOrdersPage(stores, { ...page, organization: caller.organization, subject: caller.subject });
    },
    get upstreamReads() {
      return reader?.upstreamReads ?? 0;
    },
  };
}
