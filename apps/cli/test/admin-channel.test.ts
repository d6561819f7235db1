import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { statSync, writeFileSync } from "node:fs";
import { createServer, request } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, describe, test } from "node:test";
import { type Admin, createAdmin } from "@hub/admin";
import { hashApiKey } from "@hub/contract";
import { createTestDatabases, openStore, type PreparedDataDir, type Store } from "@hub/store";
import { pino } from "pino";
import { type AdminChannel, startAdminChannel } from "../src/admin-channel.js";
import { AdminChannelNotAuthenticated, sendAdminRequest } from "../src/admin-channel-client.js";
import {
  type AdminChannelAnswer,
  adminChannelFilePath,
  readAdminChannelFile,
} from "../src/admin-channel-file.js";
import { adminChannelProof } from "../src/admin-channel-proof.js";
import { jsonOf, runHub } from "./run-hub.js";

const databases = createTestDatabases({ databaseUrl: undefined });
after(() => databases.dispose());
const logger = pino({ level: "silent" });

/** One POST to a loopback port, as a caller that may not hold the token would send it. */
function postRaw(port: number, path: string, headers: Record<string, string>, body: string) {
  return new Promise<{ status: number; text: string }>((resolve, reject) => {
    const outgoing = request({ host: "127.0.0.1", port, method: "POST", path, headers }, (response) => {
      let text = "";
      response.on("data", (chunk) => (text += chunk));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, text }));
    });
    outgoing.on("error", reject);
    outgoing.end(body);
  });
}

describe("hub admin through a running service's admin channel (embedded database)", () => {
  let target: PreparedDataDir;
  let store: Store;
  let admin: Admin;
  let channel: AdminChannel;
  before(async () => {
    target = await databases.prepareDataDir("pglite");
    store = await openStore({ dataDir: target.dataDir });
    admin = createAdmin({ store: store.access });
    channel = await startAdminChannel({ admin, dataDir: target.dataDir, logger });
  });
  after(async () => {
    await channel?.stop();
    await store?.close();
    await target?.dispose();
  });

  test("the channel file names this process and its port, readable by its owner only", () => {
    const file = readAdminChannelFile(target.dataDir);
    assert.equal(file?.pid, process.pid);
    assert.equal(file?.port, channel.port);
    assert.equal(statSync(adminChannelFilePath(target.dataDir)).mode & 0o777, 0o600);
  });

  test("a data dir the admin channel creates is owner-only (0700)", async () => {
    const dataDir = `${target.dataDir}/created-by-channel`;
    const second = await startAdminChannel({ admin, dataDir, logger });
    try {
      assert.equal(statSync(dataDir).mode & 0o777, 0o700);
      assert.equal(statSync(adminChannelFilePath(dataDir)).mode & 0o777, 0o600);
    } finally {
      await second.stop();
    }
  });

  test("the CLI sends its command to the channel while the service holds the data dir, and a revoke is in force at once", async () => {
    const org = jsonOf(await runHub(["admin", "org", "create", "--name", "Via channel", "--json"], target));
    const orgId = org.organization.orgId as string;
    assert.equal((await admin.showOrganization({ orgId })).organization.name, "Via channel");
    const created = jsonOf(await runHub(["admin", "key", "create", "--org", orgId, "--json"], target));
    const keyHash = hashApiKey(created.apiKey.key);
    assert.equal((await store.access.findKeyByHash(keyHash))?.revokedAt, null);
    const revoke = await runHub(["admin", "key", "revoke", created.apiKey.keyId], target);
    assert.equal(revoke.code, 0, revoke.stderr);
    assert.match(revoke.stdout, /^revoked key_/);
    const revokedAt = (await store.access.findKeyByHash(keyHash))?.revokedAt;
    assert.ok(revokedAt, "the service's own lookup sees the revoke as soon as the CLI returns");
    const refused = await runHub(
      [
        "admin",
        "project",
        "origins",
        "--project",
        "proj_000000000000000000000000",
        "--origin",
        "https://a.example",
        "--json",
      ],
      target,
    );
    assert.equal(refused.code, 1);
    assert.equal(jsonOf(refused).error.code, "project-not-found");
  });

  test("a request without a valid proof of the channel's token is refused and changes nothing", async () => {
    const before = (await admin.listOrganizations({ limit: 500 })).organizations.length;
    const challenge = await postRaw(
      channel.port,
      "/admin/challenge",
      {},
      JSON.stringify({ clientNonce: "ab".repeat(32) }),
    );
    const { serverNonce } = JSON.parse(challenge.text) as { serverNonce: string };
    const body = JSON.stringify({ verb: "org.create", name: "Intruder" });
    const { status, text } = await postRaw(
      channel.port,
      "/admin",
      {
        "x-hub-admin-nonce": serverNonce,
        "x-hub-admin-proof": adminChannelProof("not-the-token", "client", serverNonce, "ab".repeat(32), body),
      },
      body,
    );
    const answer = JSON.parse(text) as AdminChannelAnswer;
    assert.equal(status, 401);
    assert.equal(answer.ok, false);
    assert.equal((await admin.listOrganizations({ limit: 500 })).organizations.length, before);
  });

  test("a CLI holding a wrong token finds the channel unable to prove it and sends nothing", async () => {
    const file = readAdminChannelFile(target.dataDir)!;
    const before = (await admin.listOrganizations({ limit: 500 })).organizations.length;
    await assert.rejects(
      sendAdminRequest({ ...file, token: "not-the-token" }, { verb: "org.create", name: "Intruder" }),
      AdminChannelNotAuthenticated,
    );
    assert.equal((await admin.listOrganizations({ limit: 500 })).organizations.length, before);
  });

  test("a request proof is good for one request only: a replayed request is refused", async () => {
    const file = readAdminChannelFile(target.dataDir)!;
    const clientNonce = "cd".repeat(32);
    const challenge = await postRaw(channel.port, "/admin/challenge", {}, JSON.stringify({ clientNonce }));
    const { serverNonce } = JSON.parse(challenge.text) as { serverNonce: string };
    const body = JSON.stringify({ verb: "org.list" });
    const headers = {
      "x-hub-admin-nonce": serverNonce,
      "x-hub-admin-proof": adminChannelProof(file.token, "client", serverNonce, clientNonce, body),
    };
    assert.equal((await postRaw(channel.port, "/admin", headers, body)).status, 200);
    assert.equal((await postRaw(channel.port, "/admin", headers, body)).status, 401);
  });

  test("a malformed request is refused by the channel's schema", async () => {
    const file = readAdminChannelFile(target.dataDir)!;
    const { status, answer } = await sendAdminRequest(file, { verb: "org.create" } as never);
    assert.equal(status, 400);
    assert.equal(!answer.ok && answer.error.code, "invalid-request");
  });
});

describe("hub admin without a reachable channel (embedded database)", () => {
  test("a channel file left by a dead process is ignored and the CLI opens the data dir itself", async () => {
    const target = await databases.prepareDataDir("pglite");
    try {
      const dead = spawnSync(process.execPath, ["-e", ""]).pid!;
      writeFileSync(adminChannelFilePath(target.dataDir), JSON.stringify({ port: 1, token: "x", pid: dead }));
      const run = await runHub(["admin", "org", "create", "--name", "Direct", "--json"], target);
      assert.equal(run.code, 0, run.stderr);
      assert.equal(jsonOf(run).organization.name, "Direct");
    } finally {
      await target.dispose();
    }
  });

  test("an impostor on the channel file's port never receives the token and its forged answer is not believed; the CLI opens the data dir itself", async () => {
    const target = await databases.prepareDataDir("pglite");
    const received: string[] = [];
    const impostor = createServer(async (request, response) => {
      let body = "";
      for await (const chunk of request) body += chunk;
      received.push(JSON.stringify(request.headers), request.url ?? "", body);
      const forged =
        request.url === "/admin/challenge"
          ? { serverNonce: "ef".repeat(32), serverProof: "00".repeat(32) }
          : { ok: true, result: { apiKey: { keyId: "key_forged", revokedAt: "2026-01-01T00:00:00.000Z" } } };
      response.writeHead(200, { "content-type": "application/json", "x-hub-admin-proof": "00".repeat(32) });
      response.end(JSON.stringify(forged));
    });
    await new Promise<void>((resolve) => impostor.listen(0, "127.0.0.1", resolve));
    try {
      const token = "the-real-admin-token-0123456789";
      const port = (impostor.address() as AddressInfo).port;
      writeFileSync(adminChannelFilePath(target.dataDir), JSON.stringify({ port, token, pid: process.pid }));
      await assert.rejects(
        sendAdminRequest({ port, token, pid: process.pid }, { verb: "org.list" }),
        AdminChannelNotAuthenticated,
      );
      const run = await runHub(["admin", "key", "revoke", "key_000000000000000000000000", "--json"], target);
      assert.equal(run.code, 1, run.stdout);
      assert.equal(
        jsonOf(run).error.code,
        "key-not-found",
        "the answer is the data dir's, not the impostor's",
      );
      assert.ok(received.length > 0, "the impostor was asked for its proof");
      assert.ok(
        received.every((text) => !text.includes(token)),
        "the token never reached the impostor",
      );
      assert.ok(
        received.every((text) => !text.includes("key.revoke") && !text.includes("org.list")),
        "no request reached it",
      );
    } finally {
      impostor.closeAllConnections();
      await new Promise<void>((resolve) => impostor.close(() => resolve()));
      await target.dispose();
    }
  });

  test("a data dir held by a live service without a channel is refused, never opened twice", async () => {
    const target = await databases.prepareDataDir("pglite");
    const store = await openStore({ dataDir: target.dataDir });
    try {
      const run = await runHub(["admin", "org", "list", "--json"], target);
      assert.equal(run.code, 1);
      assert.equal(jsonOf(run).error.code, "database-in-use");
    } finally {
      await store.close();
      await target.dispose();
    }
  });

  test("stopping the channel removes its file", async () => {
    const target = await databases.prepareDataDir("pglite");
    const store = await openStore({ dataDir: target.dataDir });
    try {
      const channel = await startAdminChannel({
        admin: createAdmin({ store: store.access }),
        dataDir: target.dataDir,
        logger,
      });
      assert.ok(readAdminChannelFile(target.dataDir));
      await channel.stop();
      assert.equal(readAdminChannelFile(target.dataDir), undefined);
    } finally {
      await store.close();
      await target.dispose();
    }
  });
});
