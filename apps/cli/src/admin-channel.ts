import { randomBytes } from "node:crypto";
import { mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { Admin } from "@hub/admin";
import type { Logger } from "pino";
import { createAdminChallenges } from "./admin-challenges.js";
import { type AdminChannelFile, adminChannelFilePath, readAdminChannelFile } from "./admin-channel-file.js";
import { handleAdminChannelRequest } from "./handle-admin-channel-request.js";

export interface AdminChannelDeps {
  admin: Admin;
  dataDir: string;
  logger: Pick<Logger, "info" | "warn" | "error">;
}

export interface AdminChannel {
  readonly port: number;
  stop(): Promise<void>;
}

/**
 * Lets `hub admin` reach a running service that holds the embedded database (a PGlite dir has one
 * opener). Listens on 127.0.0.1 on a free port and writes `<dataDir>/admin.json` { port, token, pid }
 * (mode 0600). The token never travels: a caller first sends a nonce to /admin/challenge and gets the
 * server's nonce with the server's proof over both; its request then carries its own proof over both
 * nonces and the body, and the answer carries the server's proof over it. stop() closes it and removes the file.
 */
export async function startAdminChannel(deps: AdminChannelDeps): Promise<AdminChannel> {
  const { admin, dataDir, logger } = deps;
  const token = randomBytes(32).toString("base64url");
  const server = createServer(
    handleAdminChannelRequest({ admin, token, challenges: createAdminChallenges(), logger }),
  );

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;

  const file: AdminChannelFile = { port, token, pid: process.pid };
  const path = adminChannelFilePath(dataDir);
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(file)}\n`, { mode: 0o600 });
  renameSync(temporary, path);
  logger.info({ port, file: path }, "admin channel listening");

  return {
    port,
    async stop() {
      // Leave the file alone if another service has taken the data dir over since.
      if (readAdminChannelFile(dataDir)?.token === token) rmSync(path, { force: true });
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
