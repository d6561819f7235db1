// Input bounds benchmark: server CPU time per request (process.cpuUsage over N requests; the client runs
// in its own process) through the real gateway and hub (in-process transport) for the worst input the
// decoder admits (every field at its longest, both accounts 44-character base58 keys, the body padded
// to the gateway's 64 KiB limit three ways), and for the old worst case, a 60,000-character Solana
// recipient, now refused at decode. `npm run bench -- bounds`, or `node --import tsx bench/bounds.ts`.
import { spawn } from "node:child_process";
import { loadavg } from "node:os";
import { fileURLToPath, pathToFileURL } from "node:url";
import { decodeBase58 } from "@hub/contract";
import { parseHubConfig } from "@hub/hub-app";
import { createTestHubApp } from "@hub/hub-app/test-harness";
import { pino } from "pino";
import { startBenchGateway } from "./bench-gateway.js";
import { benchCatalog } from "./gateway-catalog.js";

const HUB_SECRET = "bench-bounds-credential-0123456789abcdef";
const ORG = "org_bench";
const HUB_BODY_LIMIT_BYTES = parseHubConfig({ gatewayCredential: HUB_SECRET }).bodyLimitBytes;
const GATEWAY_BODY_LIMIT_BYTES = 65_536;
const clientScript = fileURLToPath(new URL("./bounds-load.ts", import.meta.url));

const SOLANA_DOMAIN = "solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1";
/** 32 bytes of 0xff: the longest base58 a Solana key can be (44 characters). */
const LONGEST_SOLANA_KEY = "JEKNVnkbo3jma5nREBBJCDoXFVeKkD56V3xKrvRmWxFG";

/** A prepare request with every field at the longest the contract admits. */
function longestFields(): Record<string, string> {
  return {
    sourceAsset: `${SOLANA_DOMAIN}/${"t".repeat(8)}:${"a".repeat(128)}/${"1".repeat(78)}`,
    destinationAsset: `${SOLANA_DOMAIN}/${"t".repeat(8)}:${"b".repeat(128)}/${"2".repeat(78)}`,
    amount: ((1n << 256n) - 1n).toString(),
    recipient: LONGEST_SOLANA_KEY,
    sourceAccount: LONGEST_SOLANA_KEY,
    swapType: "exact-output",
    preparationId: "p".repeat(128),
    provider: "v".repeat(64),
  };
}

/** The fields, then unknown content filling the body to exactly `limitBytes` (ignored, but parsed). */
function paddedBody(kind: "string" | "keys" | "nesting", limitBytes: number): string {
  const fields = longestFields();
  const base = JSON.stringify(fields);
  const room = limitBytes - base.length - ',"pad":'.length;
  let pad: string;
  if (kind === "string") pad = JSON.stringify("x".repeat(room - 2));
  else if (kind === "keys") {
    const parts: string[] = [];
    let size = 2;
    for (let i = 0; size + `"k${i}":0,`.length <= room; i++) {
      parts.push(`"k${i}":0`);
      size += `"k${i}":0,`.length;
    }
    pad = `{${parts.join(",")}}`;
  } else {
    const depth = Math.floor(room / 2);
    pad = "[".repeat(depth) + "]".repeat(depth);
  }
  const body = `${base.slice(0, -1)},"pad":${pad}}`;
  if (Buffer.byteLength(body) > limitBytes) throw new Error(`${kind} body over the limit`);
  return body;
}

interface ClientResult {
  codes: Record<string, number>;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

function runClient(options: object): Promise<ClientResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", clientScript], {
      stdio: ["pipe", "pipe", "inherit"],
    });
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.on("error", reject);
    child.on("exit", (code) => {
      if (code !== 0) reject(new Error(`bounds client exited with ${code}`));
      else resolve(JSON.parse(out.trim().split("\n").pop() as string) as ClientResult);
    });
    child.stdin.end(JSON.stringify(options));
  });
}

/** Server CPU microseconds per request over `requests` calls, after a warm-up run of the same body. */
async function measure(
  gateway: { url: string; key: string },
  body: string,
  requests: number,
): Promise<{ bodyBytes: number; requests: number; cpuMicrosPerRequest: number } & ClientResult> {
  const options = {
    url: gateway.url,
    path: "/v1/quote/prepare",
    headers: {
      "x-api-key": gateway.key,
      "x-service-subject": "s".repeat(128),
      "content-type": "application/json",
    },
    body,
    connections: 4,
  };
  await runClient({ ...options, requests: Math.max(50, Math.round(requests / 10)) });
  const before = process.cpuUsage();
  const result = await runClient({ ...options, requests });
  const cpu = process.cpuUsage(before);
  return {
    bodyBytes: Buffer.byteLength(body),
    requests,
    cpuMicrosPerRequest: Math.round((cpu.user + cpu.system) / requests),
    ...result,
  };
}

/** CPU milliseconds of the unbounded base58 decode the old quote path ran on a 60,000-character recipient. */
function oldDecodeCpuMs(recipient: string): number {
  const before = process.cpuUsage();
  decodeBase58(recipient);
  const cpu = process.cpuUsage(before);
  return Number(((cpu.user + cpu.system) / 1000).toFixed(1));
}

/** The real gateway in front of a hub whose buckets never shed, the hub reading bodies up to `bodyLimitBytes`. */
async function startStack(bodyLimitBytes: number) {
  const hub = createTestHubApp({
    config: {
      gatewayCredential: HUB_SECRET,
      bodyLimitBytes,
      perIpBucket: { ratePerSecond: 1e9, burst: 1e9 },
      organizationBucket: { ratePerSecond: 1e9, burst: 1e9 },
    },
    catalog: benchCatalog(),
    logger: pino({ level: "silent" }),
  });
  const gateway = await startBenchGateway(hub, { hubSecret: HUB_SECRET, organization: ORG });
  return {
    url: gateway.url,
    key: gateway.key,
    async close() {
      await gateway.close();
      await hub.close();
    },
  };
}

/** Runs the whole benchmark and returns its figures. */
export async function run(options: { requests?: number } = {}): Promise<object> {
  const requests = options.requests ?? 2000;
  const loadBefore = loadavg();
  const stack = await startStack(HUB_BODY_LIMIT_BYTES);
  let worstAdmitted: Record<string, Awaited<ReturnType<typeof measure>>>;
  let overHubLimit: Awaited<ReturnType<typeof measure>>;
  try {
    worstAdmitted = {
      fieldsOnly: await measure(stack, JSON.stringify(longestFields()), requests),
      paddedWithOneString: await measure(stack, paddedBody("string", HUB_BODY_LIMIT_BYTES), requests),
      paddedWithManyKeys: await measure(stack, paddedBody("keys", HUB_BODY_LIMIT_BYTES), requests),
      paddedWithNesting: await measure(stack, paddedBody("nesting", HUB_BODY_LIMIT_BYTES), requests),
    };
    // Past the hub's limit and within the gateway's, a body reads as empty at the hub and is not parsed.
    overHubLimit = await measure(stack, paddedBody("keys", GATEWAY_BODY_LIMIT_BYTES), requests);
  } finally {
    await stack.close();
  }
  const worstCpu = Math.max(...Object.values(worstAdmitted).map((r) => r.cpuMicrosPerRequest));

  // The old worst case fits only under a hub limit of the gateway's 64 KiB: there the field bound refuses it.
  const oldRecipient = "2".repeat(60_000);
  const wide = await startStack(GATEWAY_BODY_LIMIT_BYTES);
  let oldWorstCase: object;
  try {
    oldWorstCase = {
      recipientChars: oldRecipient.length,
      unboundedDecodeCpuMs: oldDecodeCpuMs(oldRecipient),
      hubBodyLimitBytes: GATEWAY_BODY_LIMIT_BYTES,
      now: await measure(
        wide,
        JSON.stringify({ ...longestFields(), recipient: oldRecipient }),
        Math.max(100, Math.round(requests / 10)),
      ),
    };
  } finally {
    await wide.close();
  }
  return {
    route: "POST /v1/quote/prepare through the gateway (in-process hub)",
    loadAverageBefore: loadBefore.map((n) => Number(n.toFixed(2))),
    loadAverageAfter: loadavg().map((n) => Number(n.toFixed(2))),
    hubBodyLimitBytes: HUB_BODY_LIMIT_BYTES,
    worstAdmitted,
    overHubLimit,
    oldWorstCase,
    verdict: { worstAdmittedCpuMicrosPerRequest: worstCpu, targetMicros: 1000, met: worstCpu < 1000 },
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  console.log(JSON.stringify(await run(), null, 2));
}
