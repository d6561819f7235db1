// The quotes benchmark's devnet in a process of its own, so that the hub process's CPU is the hub's:
// in the hub's process the devnet's chain polling cost 100-300 ms of CPU a second, which a loaded
// machine made too uneven to subtract. Sends { url, catalog, user } over IPC; stops on disconnect.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createDevnet } from "@hub/devnet-app";
import { pino } from "pino";

const dataDir = await mkdtemp(join(tmpdir(), "bench-quotes-"));
const devnet = await createDevnet({ port: 0, rpcPorts: [0, 0], dataDir, logger: pino({ level: "silent" }) });
process.on("disconnect", async () => {
  await devnet.stop();
  await rm(dataDir, { recursive: true, force: true });
  process.exit(0);
});
process.send!({ url: devnet.url, catalog: devnet.catalog, user: devnet.manifest.users[0]!.address });
