import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Devnet, createDevnet } from "@hub/devnet-app";
import { pino } from "pino";

export interface HubTestDevnet extends Devnet {
  /** JSON to the devnet's control API; resolves to the parsed answer, throws on a non-2xx. */
  control(method: "POST" | "DELETE", path: string, body?: unknown): Promise<unknown>;
}

/** One devnet on free ports with a throw-away data dir and quiet logs. */
export async function startHubTestDevnet(): Promise<HubTestDevnet> {
  const dataDir = await mkdtemp(join(tmpdir(), "hub-quote-devnet-"));
  const devnet = await createDevnet({
    port: 0,
    rpcPorts: [0, 0],
    dataDir,
    pollIntervalMs: 100,
    logger: pino({ level: "silent" }),
  });
  return {
    ...devnet,
    async control(method, path, body) {
      const response = await fetch(`${devnet.url}/control${path}`, {
        method,
        ...(body === undefined
          ? {}
          : { headers: { "content-type": "application/json" }, body: JSON.stringify(body) }),
      });
      const text = await response.text();
      if (!response.ok) throw new Error(`control ${method} ${path}: ${response.status} ${text}`);
      return text ? (JSON.parse(text) as unknown) : undefined;
    },
    async stop() {
      try {
        await devnet.stop();
      } finally {
        await rm(dataDir, { recursive: true, force: true });
      }
    },
  };
}
