import type { OrganizationRateLimiter } from "../limits/organization-rate-limiter.js";
import { hubHeaders } from "@hub/contract";
import { header, type InboundCall } from "./inbound-call.js";
import type { RegisteredOperation } from "./operation.js";
import { OperationCall } from "./operation-call.js";
import { readOperationInput } from "./read-operation-input.js";

/**
 * A matched call through the route's own rules (body, query, subject, the operation's resolve, the
 * organization's bucket) to its handler; a call whose caller is gone stops before the handler.
 */
export async function serveOperation(
  deps: { bodyLimitBytes: number; organizationLimiter: OrganizationRateLimiter },
  call: InboundCall,
  requestId: string,
  entry: RegisteredOperation,
  params: Record<string, string>,
): Promise<unknown> {
  const { route, operation } = entry;
  const input = readOperationInput(call, entry, deps.bodyLimitBytes);
  const { subject } = input;
  const resolved = operation.resolve
    ? await operation.resolve(
        new OperationCall(
          requestId,
          params,
          input.body,
          input.query,
          call.cancellation,
          undefined,
          undefined,
        ),
      )
    : undefined;

  const organization = header(call, hubHeaders.organization);
  if (route.bucket) {
    if (!organization) throw new Error("the gateway sent no X-Service-Org on a charged route");
    await deps.organizationLimiter.charge(route.bucket, organization);
  }
  // An uncharged route called without X-Service-Org reads as an organization that owns nothing.
  const caller =
    route.access === "public"
      ? undefined
      : subject === undefined
        ? { organization: organization ?? "" }
        : { organization: organization ?? "", subject };

  if (call.cancellation?.aborted) throw call.cancellation.signal.reason;
  return operation.handle(
    new OperationCall(requestId, params, input.body, input.query, call.cancellation, caller, resolved),
  );
}
