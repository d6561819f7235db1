import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createDevnet, type Devnet, type DevnetSolverConfig } from "@hub/devnet-app";
import { pino } from "pino";
import { devnetControl } from "./hub-fixture.js";

export interface HubTestDevnet extends Devnet {
  /** JSON to the devnet's control API; resolves to the parsed answer, throws on a non-2xx. */
  control(method: "POST" | "PUT" | "DELETE", path: string, body?: unknown): Promise<unknown>;
}

/** One devnet on free ports with a throw-away data dir and quiet logs; blocks mined per transaction unless `blockTimeSeconds`. */
export async function startHubTestDevnet(
  options: { blockTimeSeconds?: number; solvers?: DevnetSolverConfig[] } = {},
): Promise<HubTestDevnet> {
  const dataDir = await mkdtemp(join(tmpdir(), "hub-quote-devnet-"));
  const devnet = await createDevnet({
    port: 0,
    rpcPorts: [0, 0],
    dataDir,
    pollIntervalMs: 100,
    ...options,
    logger: pino({ level: "silent" }),
  });
  return {
    ...devnet,
    control: devnetControl(devnet.url),
    async stop() {
      try {
        await devnet.stop();
      } finally {
        await rm(dataDir, { recursive: true, force: true });
      }
    },
  };
}
