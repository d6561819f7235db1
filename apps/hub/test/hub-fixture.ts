import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type AdjustableClock, createAdjustableClock } from "@hub/clock";
import {
  API_PREFIX,
  type Catalog,
  carriesMessage,
  type Envelope,
  type ErrorCode,
  errorCatalogue,
  errorEnvelopeSchema,
  type HubAnswer,
  hubHeaders,
  matchRoute,
  type OperationId,
  operationContracts,
  successEnvelopeSchema,
} from "@hub/contract";
import { createMemoryCounters } from "@hub/counters";
import { pino } from "pino";
import type { z } from "zod";
import { createHubApp, type HubApp, type HubAppDeps, type HubConfigInput } from "../src/index.js";

export const GATEWAY_SECRET = "test-gateway-secret-0123456789abcdef";

/** A small valid catalog: one EVM chain with its native coin and one token. */
export function testCatalog(): Catalog {
  const token = "0x00000000000000000000000000000000000000aa";
  return {
    families: {
      evm: [
        {
          chainDomain: "eip155:31337",
          chainId: 31337,
          name: "Devnet A",
          native: { symbol: "ETH", decimals: 18 },
          nativeKey: "eip155:31337/slip44:60",
          inputSettlers: { escrow: "0x00000000000000000000000000000000000000e1" },
          outputSettler: "0x00000000000000000000000000000000000000e2",
          inputOracle: "0x00000000000000000000000000000000000000e3",
          permit2: "0x000000000022d473030f116ddee9f6b43ac78ba3",
          assets: [
            {
              key: `eip155:31337/erc20:${token}`,
              symbol: "USDC",
              decimals: 6,
              address: token,
              authorizations: ["permit2", "eip3009"],
            },
          ],
        },
      ],
      solana: [],
    },
  };
}

/** A clock the test moves by hand. */
export function manualClock(startMs = 1_800_000_000_000): AdjustableClock {
  return createAdjustableClock({ now: () => startMs });
}

/**
 * createHubApp with the tests' defaults, each replaceable: the gateway secret, testCatalog, memory
 * counters, a silent log and replica r1; config is merged over the secret.
 */
export function createTestHubApp(
  deps: Partial<Omit<HubAppDeps, "config">> & { config?: Partial<HubConfigInput> } = {},
): HubApp {
  const { config, ...rest } = deps;
  return createHubApp({
    catalog: testCatalog(),
    counters: createMemoryCounters({}),
    logger: pino({ level: "silent" }),
    replicaId: "r1",
    ...rest,
    config: { gatewayCredential: GATEWAY_SECRET, ...config },
  });
}

export interface TestHub extends HubApp {
  clock: ReturnType<typeof manualClock>;
  logLines: string[];
}

/** A hub with memory counters on a manual clock and a captured JSON log. */
export function startTestHub(
  config: Partial<HubConfigInput> = {},
  options: { openapiPath?: string; logLevel?: string } = {},
): TestHub {
  const clock = manualClock();
  const logLines: string[] = [];
  const logger = pino(
    { level: options.logLevel ?? "info" },
    { write: (line: string) => logLines.push(line) },
  );
  const hub = createTestHubApp({
    config,
    counters: createMemoryCounters({}, { clock }),
    logger,
    clock,
    ...(options.openapiPath === undefined ? {} : { openapiPath: options.openapiPath }),
  });
  return { ...hub, clock, logLines };
}

/** The headers the gateway sets on every call it forwards. */
export function gatewayHeaders(extra: Record<string, string> = {}): Record<string, string> {
  return {
    [hubHeaders.gatewayCredential]: GATEWAY_SECRET,
    [hubHeaders.organization]: "org_test",
    [hubHeaders.userAgent]: "hub-test",
    [hubHeaders.acceptLanguage]: "en",
    ...extra,
  };
}

export const SUBJECT = { [hubHeaders.subject]: "user-1" };

/** A valid quote request (struct order). */
export function quoteBody(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    sourceAsset: "eip155:31337/erc20:0x00000000000000000000000000000000000000aa",
    destinationAsset: "eip155:31337/slip44:60",
    amount: "1000000",
    recipient: "0x00000000000000000000000000000000000000bb",
    ...extra,
  };
}

const operationOfAnswer = new WeakMap<HubAnswer, OperationId>();

/** The operation a method and URL name, if any (so answers can be held to that route's contract). */
export function operationOf(method: string, url: string): OperationId | undefined {
  const path = url.split("?")[0] ?? "";
  if (!path.startsWith(`${API_PREFIX}/`)) return undefined;
  try {
    return matchRoute(method, path.slice(API_PREFIX.length))?.route.operationId as OperationId | undefined;
  } catch {
    return undefined;
  }
}

/** Remembers which route an answer came from; envelopeOf then checks it against that route's contract. */
export function answerOf(answer: HubAnswer, method: string, url: string): HubAnswer {
  const operationId = operationOf(method, url);
  if (operationId) operationOfAnswer.set(answer, operationId);
  return answer;
}

/** One call through the in-process entry. */
export async function call(
  hub: HubApp,
  method: string,
  url: string,
  options: { headers?: Record<string, string>; body?: string | Buffer; json?: unknown } = {},
): Promise<HubAnswer> {
  const headers = { ...gatewayHeaders(), ...options.headers };
  let body: Buffer | undefined;
  if (options.json !== undefined) {
    body = Buffer.from(JSON.stringify(options.json));
    headers["content-type"] ??= "application/json";
  } else if (options.body !== undefined) {
    body = Buffer.isBuffer(options.body) ? options.body : Buffer.from(options.body);
  }
  const answer = await hub.handle({ method, url, headers, ...(body === undefined ? {} : { body }) });
  return answerOf(answer, method, url);
}

/**
 * Parses an answer and holds it to the envelope rules and, when the route is known, to the route's
 * contract (its data schema on success, its list of codes on refusal); returns the envelope.
 */
export function envelopeOf(answer: HubAnswer, options: { perIpRefusal?: boolean } = {}): Envelope {
  assert.match(answer.headers["content-type"] ?? "", /^application\/json/);
  const requestId = answer.headers["x-request-id"];
  assert.ok(requestId, "X-Request-Id on every answer");
  const envelope = JSON.parse(answer.body.toString("utf8")) as Envelope;
  const allowed = new Set(["success", "data", "request_id", "message", "errors"]);
  for (const key of Object.keys(envelope)) assert.ok(allowed.has(key), `unexpected envelope field ${key}`);
  assert.equal(typeof envelope.success, "boolean");
  if (options.perIpRefusal) assert.equal(envelope.request_id, undefined);
  else assert.equal(envelope.request_id, requestId, "body request_id equals the header");
  if (envelope.success) {
    assert.equal(answer.statusCode, 200);
    assert.ok("data" in envelope, "data on success");
    assert.equal(envelope.errors, undefined);
    assert.equal(envelope.message, undefined);
  } else {
    assert.equal(envelope.data, undefined);
    assert.ok(Array.isArray(envelope.errors) && envelope.errors.length === 1, "exactly one error entry");
    const entry = envelope.errors[0]!;
    const code = entry.error_code as ErrorCode;
    assert.ok(code in errorCatalogue, `known code ${code}`);
    assert.equal(answer.statusCode, errorCatalogue[code].status);
    for (const key of Object.keys(entry)) {
      assert.ok(["error_code", "error_reference", "error_params"].includes(key), `entry field ${key}`);
    }
    if (entry.error_reference !== undefined) assert.ok(entry.error_reference.length > 0);
    if (entry.error_params !== undefined) {
      assert.ok(entry.error_params.length > 0);
      for (const p of entry.error_params) assert.equal(typeof p, "string");
    }
    assert.equal(
      envelope.message !== undefined,
      carriesMessage(code),
      `message only on terminal codes (${code})`,
    );
  }
  const operationId = operationOfAnswer.get(answer);
  if (operationId) {
    const contract = operationContracts[operationId];
    if (envelope.success) {
      assert.notEqual(contract.responseData, "yaml");
      const parsed = successEnvelopeSchema(contract.responseData as z.ZodType)
        .strict()
        .safeParse(envelope);
      assert.ok(parsed.success, `${operationId} data against the contract: ${parsed.error?.message}`);
    } else {
      const parsed = errorEnvelopeSchema.strict().safeParse(envelope);
      assert.ok(parsed.success, `${operationId} refusal against the contract: ${parsed.error?.message}`);
      const code = envelope.errors?.[0]?.error_code as ErrorCode;
      // EPX0004 is the answer of no route at all (a call without the gateway's credential).
      if (code !== "EPX0004") {
        assert.ok(contract.errorCodes.includes(code), `${code} is among ${operationId}'s codes`);
      }
    }
  }
  return envelope;
}

/** Asserts a refusal with this code (and reference), returns its entry. */
export function assertRefusal(answer: HubAnswer, code: ErrorCode, reference?: string) {
  const envelope = envelopeOf(answer);
  assert.equal(envelope.success, false, `expected ${code}, got ${answer.body.toString()}`);
  const entry = envelope.errors![0]!;
  assert.equal(entry.error_code, code, answer.body.toString());
  assert.equal(entry.error_reference, reference);
  return entry;
}

/**
 * One call through a listening gateway with a secret key, the answer held to the route's contract:
 * the `api` of the test stacks that put the real gateway in front of the hub.
 */
export function gatewayCaller(gatewayUrl: string, key: string) {
  return async (
    method: "GET" | "POST",
    path: string,
    { subject, json }: { subject?: string; json?: unknown } = {},
  ): Promise<{ status: number; envelope: Envelope; text: string }> => {
    const response = await fetch(`${gatewayUrl}${path}`, {
      method,
      headers: {
        "x-api-key": key,
        ...(subject === undefined ? {} : { "x-service-subject": subject }),
        ...(json === undefined ? {} : { "content-type": "application/json" }),
      },
      ...(json === undefined ? {} : { body: JSON.stringify(json) }),
    });
    const text = await response.text();
    const answer = answerOf(
      {
        statusCode: response.status,
        headers: Object.fromEntries(response.headers.entries()),
        body: Buffer.from(text),
      } as HubAnswer,
      method,
      path,
    );
    return { status: response.status, envelope: envelopeOf(answer), text };
  };
}

/** JSON to a devnet's control API (`<devnetUrl>/control<path>`); throws on a non-2xx. */
export function devnetControl(devnetUrl: string) {
  return async (
    method: "GET" | "POST" | "PUT" | "DELETE",
    path: string,
    body?: unknown,
  ): Promise<unknown> => {
    // The control API takes a POST only with a JSON body: `{}` stands for none.
    const json = body === undefined && method === "POST" ? {} : body;
    const response = await fetch(`${devnetUrl}/control${path}`, {
      method,
      ...(json === undefined
        ? {}
        : { headers: { "content-type": "application/json" }, body: JSON.stringify(json) }),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`control ${method} ${path}: ${response.status} ${text}`);
    return text ? (JSON.parse(text) as unknown) : undefined;
  };
}

/** Writes a file under the OS temp dir and returns its path. */
export function tempFile(name: string, content: string): string {
  const path = join(tmpdir(), `hub-test-${process.pid}-${Date.now()}-${name}`);
  writeFileSync(path, content);
  return path;
}
