import type { OperationContract } from "../operation-contract.js";
import { operationErrorCodes } from "../operation-error-codes.js";
import type { RequestBodySchema } from "../request-body-schema.js";
import { orderCreateAckSchema } from "../resources/order-acks.js";
import { type OrderCreateRequest, orderCreateRequestBody } from "../resources/order-create-request.js";

/** POST /order request body. */
export const createOrderRequestBody: RequestBodySchema<OrderCreateRequest> = orderCreateRequestBody;

/** POST /order response data: OrderCreateAck. */
export const createOrderResponseData = orderCreateAckSchema;

/** Every code POST /order can answer. */
export const createOrderErrorCodes = operationErrorCodes("createOrder", [
  "EIN0001",
  "EIN0005",
  "EIN0006",
  "EIN0007",
  "EIN0010",
  "EIN0050",
]);

/** POST /order. */
export const createOrderOperation: OperationContract = {
  operationId: "createOrder",
  summary: "Register an open-flow order",
  description: [
    "Registers acceptance of an open-flow winner after the user sent executionTx and paid the gas. One order per quote. Header `X-Service-Subject` required.",
    "signature, signer, scheme: all three or none; a partial set is EIN0010. The user personal_signs signIntent verbatim; scheme `eip191`; signer must equal the quote's sourceAccount. If signIntent is absent a signed registration is impossible: re-quote before sending anything. Unsigned registration (none of the three) is admitted only when the deployment allows it, otherwise EIN0010.",
    "Only open-flow winners are registered: every OIF-lane quote and proxy-lane executionTx answers EIN0007 (use POST /order/openfor). A solver-swap winner can be recorded but moves no funds.",
    "Checks, in order: the quote's own checks (known, yours, quoted; an unknown quote is EIN0010); expiry (EIN0005 for a first registration at or after expiresAt); configuration (the quote's provider still configured; EIN0007); re-approval (provider enabled, an open-flow or solver-swap winner, its stored terms unchanged; EIN0007); artifactHash (EIN0010); signature (EIN0010). EIN0006: a complete eip191 signature set for a quote requested without sourceAccount (or whose signIntent the hub could not build): a signed registration is impossible, re-quote.",
    "All these refusals come after the user's transaction was sent: never re-quote because of one; the transaction completes on chain anyway, unregistered.",
    "Idempotent: a repeat for a quote that already has an order (one created through openFor included) returns that order's ack (same orderId and quoteId, first createdAt), right after the quote's own checks, so it holds after expiresAt and whatever signature fields it carries, as long as the body validates: body validation comes first on every request (a repeat with an over-long or malformed field is EIN0001 on that field, like a first request). Recover a lost ack by re-posting. Every request whose body validates, a duplicate included, is charged to the order bucket (EIN0080).",
  ].join("\n\n"),
  requestBody: createOrderRequestBody as RequestBodySchema<unknown>,
  responseData: createOrderResponseData,
  errorCodes: createOrderErrorCodes,
};
