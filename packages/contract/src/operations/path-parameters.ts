import { z } from "zod";
import type { PathParameter } from "../operation-contract.js";

/** {orderId} on GET /order/{orderId}/status: the hubOrderId. */
export const hubOrderIdParameter: PathParameter = {
  schema: z.string(),
  description: "The hubOrderId: lowercase hex SHA-256 of `service:v1:order:` followed by the quoteId.",
};

/** {orderId} on GET /status/{orderId}: the orderId of an OrderCreateAck. */
export const openFlowOrderIdParameter: PathParameter = {
  schema: z.string(),
  description: "The orderId of an open-flow registration (OrderCreateAck.orderId).",
};

/** {orderId} on the on-chain views: the on-chain order id. */
export const onchainOrderIdParameter: PathParameter = {
  schema: z.string(),
  description:
    "The on-chain order id, lowercase hex with `0x`. Uppercase hex or a missing `0x` is not an error: it finds nothing.",
};

/** {chainDomain} on the fill-by-transaction route. */
export const chainDomainParameter: PathParameter = {
  schema: z.string(),
  description:
    "CAIP-2 chain domain, case-sensitive. Not validated: an unknown or miscased domain answers EIN0051.",
};

/** {txHash} on the fill-by-transaction route. */
export const txHashParameter: PathParameter = {
  schema: z.string(),
  description: "Transaction hash, lowercase hex with `0x`; any other form finds nothing.",
};
