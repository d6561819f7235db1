import type { HubAnswer, RouteDefinition } from "@hub/contract";

function firstVisible(body: Buffer, from: number, step: 1 | -1): number {
  for (let i = from; i >= 0 && i < body.length; i += step) {
    const byte = body[i] as number;
    if (byte !== 0x20 && byte !== 0x0a && byte !== 0x0d && byte !== 0x09) return byte;
  }
  return -1;
}

/**
 * True when a hub answer can be passed back: not a server error, and a JSON object (the envelope),
 * except the OpenAPI document, which is YAML. A cheap structural check: the hub is ours, and parsing
 * every body would cost the gateway a JSON parse per call.
 */
export function isEnvelopeAnswer(answer: HubAnswer, route: RouteDefinition | undefined): boolean {
  if (answer.statusCode < 200 || answer.statusCode >= 500) return false;
  if (route?.operationId === "getOpenapi" && answer.statusCode === 200) return true;
  const contentType = answer.headers["content-type"] ?? "";
  if (!contentType.startsWith("application/json")) return false;
  return (
    firstVisible(answer.body, 0, 1) === 0x7b && firstVisible(answer.body, answer.body.length - 1, -1) === 0x7d
  );
}
