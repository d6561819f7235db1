import { decodeBody, decodeQuery, HubError, hubHeaders, isValidSubject } from "@hub/contract";
import { checkGetBody, decodeJsonBody } from "./decode-body.js";
import { header, type InboundCall } from "./inbound-call.js";
import type { RegisteredOperation } from "./operation.js";

/** What a call carries for its operation, decoded and checked. */
export interface OperationInput {
  body: unknown;
  query: Record<string, unknown>;
  subject: string | undefined;
}

const EMPTY = Buffer.alloc(0);

/** Body decode, form fields in struct order, then the subject (spec Common rules). */
export function readOperationInput(
  call: InboundCall,
  { route, operation }: RegisteredOperation,
  bodyLimitBytes: number,
): OperationInput {
  const body = call.body !== undefined && call.body.length > bodyLimitBytes ? EMPTY : call.body;
  const contentType = header(call, hubHeaders.contentType);

  let bodyValue: unknown;
  if (route.readsBody) {
    const json = decodeJsonBody(contentType, body);
    bodyValue = operation.body ? decodeBody(operation.body, json) : json;
  } else {
    checkGetBody(contentType, body);
  }

  let queryValue: Record<string, unknown> = {};
  if (route.forwardsQuery && operation.query) {
    const mark = call.url.indexOf("?");
    queryValue = decodeQuery(
      operation.query,
      new URLSearchParams(mark === -1 ? "" : call.url.slice(mark + 1)),
    );
  }

  let subject: string | undefined;
  if (route.subjectRequired) {
    subject = header(call, hubHeaders.subject);
    if (subject === undefined || !isValidSubject(subject)) {
      throw new HubError("EIN0001", {
        reference: "x-service-subject",
        message: "X-Service-Subject is missing or not 1 to 128 of letters, digits and ._@+~-",
      });
    }
  }
  return { body: bodyValue, query: queryValue, subject };
}
