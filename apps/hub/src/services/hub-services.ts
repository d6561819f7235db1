import type { CatalogService } from "./catalog-service.js";
import type { OnchainService } from "./onchain-service.js";
import type { OrderService } from "./order-service.js";
import type { OrderStatusService } from "./order-status-service.js";
import type { QuoteService } from "./quote-service.js";

/** Everything the route handlers call; none of it knows HTTP. */
export interface HubServices {
  catalog: CatalogService;
  /** The OpenAPI document's YAML, read once at start. */
  openapiYaml: Buffer;
  quotes: QuoteService;
  orders: OrderService;
  orderStatus: OrderStatusService;
  onchain: OnchainService;
}
