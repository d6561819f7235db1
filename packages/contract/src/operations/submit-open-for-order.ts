import type { OperationContract } from "../operation-contract.js";
import { operationErrorCodes } from "../operation-error-codes.js";
import type { RequestBodySchema } from "../request-body-schema.js";
import { type OpenForRequest, openForRequestBody } from "../resources/open-for-request.js";
import { openForAckSchema } from "../resources/order-acks.js";

/** POST /order/openfor request body. */
export const submitOpenForOrderRequestBody: RequestBodySchema<OpenForRequest> = openForRequestBody;

/** POST /order/openfor response data: the openFor ack. */
export const submitOpenForOrderResponseData = openForAckSchema;

/** Every code POST /order/openfor can answer. */
export const submitOpenForOrderErrorCodes = operationErrorCodes("submitOpenForOrder", [
  "EIN0001",
  "EIN0005",
  "EIN0007",
  "EIN0021",
  "EIN0050",
  "EIN0052",
  "EIN0081",
]);

/** POST /order/openfor. */
export const submitOpenForOrderOperation: OperationContract = {
  operationId: "submitOpenForOrder",
  summary: "Register a gasless or proxy-lane order",
  description: [
    "Header `X-Service-Subject` required (EIN0001, reference `x-service-subject`). Body fields in struct order: quoteRequestId, quoteId, signature (present on signature lanes, omitted on proxy lanes).",
    "A same-chain solver-swap or transfer winner is EIN0001 (it points to POST /order); a bridge/open-flow winner posted here is EIN0001.",
    "Idempotent: re-posting the identical body never opens a second order.",
    "EIN0005: a quote past its registrable time (expiresAt on the signature lanes) with no order yet; nothing was reserved or forwarded. Re-quote and sign again. A quote that already has an order keeps answering its ack.",
    "EIN0052: an earlier submission of the quote went unanswered and may have opened the order. Stop; never re-quote, never ask for another signature; re-posts keep answering EIN0052 until an operator reconciles.",
    "A bare EIN0050 or EIN0081 may mean nothing was sent (re-post after a back-off) or something was sent (the next re-post answers EIN0052). EIN0080: nothing was reserved; re-post the identical body after error_params[0] ms.",
    "EVM escrow lane: the service verifies neither the signature, the balance nor the Permit2 approval. EIN0021: the solver declined; nothing opened; do not re-post, re-quote and sign again. Approve the token before quoting.",
    "Proxy lanes: register as soon as the user's transaction is sent and well before expiresAt; after it the aggregator refuses (EIN0007) and the deposit stays in escrow: follow it by GET /onchain/tx/{chainDomain}/{txHash}/order, then GET /onchain/{orderId}/fill, and refund after expiry if unfilled. Never re-quote once the transaction is sent.",
    "Lost answer: compute hubOrderId and read GET /order/{hubOrderId}/status; after a not-found retry the read once, then re-post the identical request. Use a client timeout longer than 10 s: the gateway cuts a submission at 10 s (EPX0052). EPX0050, EPX0051, EPX0052 say nothing about whether the order opened; EPX0053 means the call never reached the hub.",
  ].join("\n\n"),
  requestBody: submitOpenForOrderRequestBody as RequestBodySchema<unknown>,
  responseData: submitOpenForOrderResponseData,
  errorCodes: submitOpenForOrderErrorCodes,
};
