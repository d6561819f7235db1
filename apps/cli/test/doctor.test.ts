import assert from "node:assert/strict";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { test } from "node:test";
import { freePort } from "@hub/test-support";
import { runCli } from "../src/run-cli.js";

async function doctor(args: string[]) {
  let stdout = "";
  let stderr = "";
  const code = await runCli(
    ["doctor", ...args],
    { dataDir: ".data" },
    {
      stdout: (text) => {
        stdout += text;
      },
      stderr: (text) => {
        stderr += text;
      },
    },
  );
  return { code, stdout, stderr };
}

test("hub doctor prints each check of the stack's /readyz and exits 1 while something is not ready", async () => {
  const report = {
    status: "not-ready",
    notReady: ["upstream:oif"],
    checks: [
      { name: "database", ready: true, ms: 2 },
      { name: "upstream:oif", ready: false, detail: "no answer within 2000 ms", ms: 2001 },
    ],
  };
  const server = createServer((request, response) => {
    assert.equal(request.url, "/readyz");
    response.writeHead(503, { "content-type": "application/json" });
    response.end(JSON.stringify(report));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    const text = await doctor(["--url", url]);
    assert.equal(text.code, 1);
    assert.equal(
      text.stdout,
      [
        "not ready: upstream:oif",
        "  ok    database          2 ms",
        "  FAIL  upstream:oif   2001 ms  no answer within 2000 ms",
        "",
      ].join("\n"),
    );
    const json = await doctor(["--url", url, "--json"]);
    assert.equal(json.code, 1);
    assert.deepEqual(JSON.parse(json.stdout), report);
  } finally {
    server.close();
  }
});

test("hub doctor with no stack listening says so and exits 1; a bad --url is a usage error", async () => {
  const url = `http://127.0.0.1:${await freePort()}`;
  const text = await doctor(["--url", url]);
  assert.equal(text.code, 1);
  assert.match(text.stderr, /^hub: no stack answers at http:\/\/127\.0\.0\.1:\d+\/readyz/);
  const json = await doctor(["--url", url, "--json"]);
  assert.equal(JSON.parse(json.stdout).error.code, "unreachable");
  assert.equal((await doctor(["--url", "not a url"])).code, 2);
  assert.equal((await doctor(["--verbose"])).code, 2);
});
