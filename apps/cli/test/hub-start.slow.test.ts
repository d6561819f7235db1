import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createConnection } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { pollUntil } from "@hub/test-support";
import { createWalletClient, erc20Abi, http, publicActions } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { type DevFile, startStack as startIn, untilReady } from "./start-stack.js";

const dataDir = mkdtempSync(join(tmpdir(), "hub-start-"));
after(() => rmSync(dataDir, { recursive: true, force: true }));
const startStack = () => startIn(dataDir, { LOG_LEVEL: "info" });

function answers(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = createConnection({ host: hostname, port: Number(port) });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

/** Calls the stack's gateway with the development key under one subject; the envelope as JSON. */
function devApi(dev: DevFile, subject: string) {
  return async <T>(method: string, path: string, body?: unknown) => {
    const headers: Record<string, string> = { "x-api-key": dev.apiKey, "x-service-subject": subject };
    if (body) headers["content-type"] = "application/json";
    const answer = await fetch(`${dev.baseUrl}${path}`, {
      method,
      headers,
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    return (await answer.json()) as { success: boolean; data: T };
  };
}

let firstDev: DevFile;

test("hub start brings up the whole stack, writes dev.json once ready, and stops leaving no listener", async (t) => {
  const stack = startStack();
  t.after(() => {
    if (stack.child.exitCode === null) stack.child.kill("SIGKILL");
  });
  await untilReady(stack);
  const dev = JSON.parse(readFileSync(join(dataDir, "dev.json"), "utf8")) as DevFile;
  firstDev = dev;
  // LOG_FORMAT=pretty: every log line is one readable line, and the banner is one block no log line
  // lands in.
  const lines = stack
    .stdout()
    .split("\n")
    .filter((line) => line.length > 0);
  const first = lines.findIndex((line) => line.startsWith("gateway (API)"));
  const last = lines.findIndex((line) => /^ready in \d+ ms/.test(line));
  assert.ok(first >= 0 && last > first, stack.stdout());
  for (const line of lines.slice(first, last + 1))
    assert.match(line, /^[a-z][A-Za-z ()]+? {2,}\S|^ready in /, line);
  for (const line of [...lines.slice(0, first), ...lines.slice(last + 1)])
    assert.match(line, /^\[\d\d:\d\d:\d\d\.\d{3}\] (INFO|WARN|ERROR|DEBUG)/, line);
  assert.match(dev.baseUrl, /^http:\/\/127\.0\.0\.1:\d+\/v1$/);
  assert.match(dev.apiKey, /^svc_sk_[A-Za-z0-9_-]{43}$/);
  assert.match(dev.projectId, /^proj_[A-Za-z0-9]{24}$/);
  assert.equal(dev.chains.length, 2);
  assert.ok(dev.accounts.length > 0);
  for (const account of dev.accounts) assert.match(account.privateKey, /^0x[0-9a-f]{64}$/);
  assert.equal(dev.solanaChains.length, 1);
  assert.match(dev.solanaChains[0]!.chainDomain, /^solana:[1-9A-HJ-NP-Za-km-z]{32}$/);
  assert.ok(dev.solanaAccounts.length > 0);
  for (const account of dev.solanaAccounts) assert.match(account.secretKey, /^[1-9A-HJ-NP-Za-km-z]{86,88}$/);
  const genesis = await fetch(dev.solanaChains[0]!.rpcUrl, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "getGenesisHash" }),
  });
  const { result: genesisHash } = (await genesis.json()) as { result: string };
  assert.equal(dev.solanaChains[0]!.chainDomain, `solana:${genesisHash.slice(0, 32)}`);

  const byKey = await fetch(`${dev.baseUrl}/catalog`, { headers: { "x-api-key": dev.apiKey } });
  assert.equal(byKey.status, 200);
  const catalog = (await byKey.json()) as {
    success: boolean;
    data: { families: { evm: { chainDomain: string }[] } };
  };
  assert.equal(catalog.success, true);
  assert.deepEqual(
    catalog.data.families.evm.map((chain) => chain.chainDomain).sort(),
    dev.chains.map((chain) => chain.chainDomain).sort(),
  );

  const byProject = await fetch(`${dev.baseUrl}/catalog`, {
    headers: { "x-project-id": dev.projectId, origin: dev.allowedOrigin },
  });
  assert.equal(byProject.status, 200);
  assert.equal(byProject.headers.get("access-control-allow-origin"), dev.allowedOrigin);

  // It ran from the start bundle, where each module still reads the files beside its source.
  assert.doesNotMatch(stack.output(), /runs through tsx/);
  const css = await fetch(`${dev.dashboardUrl}/assets/dashboard.css`);
  assert.equal(css.status, 200);
  assert.equal(
    await css.text(),
    readFileSync(new URL("../../dashboard/assets/dashboard.css", import.meta.url), "utf8"),
  );

  // The dashboard answers, and the one-time link signs in a member of the development organization.
  assert.match(dev.dashboardUrl, /^http:\/\/127\.0\.0\.1:\d+$/);
  assert.match(dev.dashboardSignInUrl, new RegExp(`^${dev.dashboardUrl}/sign-in/[A-Za-z0-9_-]{43}$`));
  assert.equal((await fetch(`${dev.dashboardUrl}/sign-in`)).status, 200);
  assert.equal((await fetch(dev.dashboardSignInUrl)).status, 200);
  const signedIn = await fetch(dev.dashboardSignInUrl, {
    method: "POST",
    redirect: "manual",
    headers: { origin: dev.dashboardUrl, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ password: "a development password", confirm: "a development password" }),
  });
  assert.equal(signedIn.status, 303);
  const session = signedIn.headers
    .getSetCookie()
    .find((c) => c.startsWith("hub_session="))!
    .split(";")[0]!;
  const overview = await fetch(dev.dashboardUrl, { headers: { cookie: session } });
  assert.equal(overview.status, 200);
  const overviewHtml = await overview.text();
  assert.ok(
    overviewHtml.includes(dev.orgId) &&
      overviewHtml.includes(dev.projectId) &&
      overviewHtml.includes(dev.baseUrl),
  );

  const metricsUrl = /^metrics +(\S+)/m.exec(stack.output())?.[1] ?? "";
  assert.ok(metricsUrl.startsWith("http://127.0.0.1:"), "hub start prints the operator listener");
  const scraped = await (await fetch(metricsUrl)).text();
  assert.match(scraped, /gateway_answers_total/, "the gateway's metrics are on the operator listener");
  assert.match(scraped, /hub_requests_total/, "the hub's metrics are on the operator listener");
  assert.equal((await fetch(`${dev.baseUrl.replace(/\/v1$/, "")}/metrics`)).status, 404);
  assert.equal((await fetch(`${dev.hubUrl}/metrics`)).status, 404);

  // The stack's readiness: the embedded database, the devnet's upstreams, each chain (EVM and Solana) and its lag.
  const readyz = metricsUrl.replace(/\/metrics$/, "/readyz");
  const report = await pollUntil(
    "/readyz answers 200",
    async () => {
      const answer = await fetch(readyz);
      return answer.status === 200 ? ((await answer.json()) as { checks: { name: string }[] }) : undefined;
    },
    { timeoutMs: 20_000, intervalMs: 250 },
  );
  const names = report.checks.map((check) => check.name);
  assert.ok(names.includes("database"), names.join(", "));
  for (const chain of [...dev.chains, ...dev.solanaChains]) {
    assert.ok(names.includes(`chain:${chain.chainDomain}`), names.join(", "));
    assert.ok(names.includes(`reconciler:${chain.chainDomain}`), names.join(", "));
  }
  assert.ok(
    names.some((name) => name.startsWith("upstream:")),
    names.join(", "),
  );

  const urls = [
    metricsUrl,
    dev.baseUrl,
    dev.dashboardUrl,
    dev.hubUrl,
    dev.devnetUrl,
    ...dev.chains.map((chain) => chain.rpcUrl),
    ...dev.solanaChains.map((chain) => chain.rpcUrl),
  ];
  for (const url of urls) assert.equal(await answers(url), true, `${url} answers while running`);

  stack.child.kill("SIGTERM");
  assert.equal(await stack.exited, 0);
  for (const url of urls) assert.equal(await answers(url), false, `${url} is closed after SIGTERM`);
});

test("a restart on the same data dir keeps the development organization, project and key, here on IPv6 listeners", async () => {
  assert.ok(firstDev, "the first start ran");
  // Every listener on ::1 (GATEWAY_HOST and its siblings): the printed URLs bracket the address.
  const onIpv6 = { GATEWAY_HOST: "::1", HUB_HOST: "::1", DASHBOARD_HOST: "::1", METRICS_HOST: "::1" };
  const stack = startIn(dataDir, { LOG_LEVEL: "info", ...onIpv6 });
  try {
    await untilReady(stack);
    const dev = JSON.parse(readFileSync(join(dataDir, "dev.json"), "utf8")) as DevFile;
    assert.match(dev.baseUrl, /^http:\/\/\[::1\]:\d+\/v1$/);
    assert.match(dev.hubUrl, /^http:\/\/\[::1\]:\d+$/);
    assert.match(dev.dashboardUrl, /^http:\/\/\[::1\]:\d+$/);
    const metricsUrl = /^metrics +(\S+)/m.exec(stack.output())?.[1] ?? "";
    assert.match(metricsUrl, /^http:\/\/\[::1\]:\d+\/metrics$/);
    assert.equal((await fetch(metricsUrl.replace(/\/metrics$/, "/livez"))).status, 200);
    for (const url of [dev.baseUrl, dev.hubUrl, dev.dashboardUrl, metricsUrl]) {
      const { port } = new URL(url);
      assert.equal(await answers(`http://127.0.0.1:${port}`), false, `${url} is not on 127.0.0.1`);
    }
    assert.equal(dev.orgId, firstDev.orgId);
    assert.equal(dev.projectId, firstDev.projectId);
    assert.equal(dev.apiKey, firstDev.apiKey);
    assert.deepEqual(
      dev.solanaChains.map((chain) => chain.chainDomain),
      firstDev.solanaChains.map((chain) => chain.chainDomain),
    );
    assert.deepEqual(dev.solanaAccounts, firstDev.solanaAccounts);
    assert.notEqual(dev.dashboardSignInUrl, firstDev.dashboardSignInUrl, "every start makes a fresh link");
    assert.equal((await fetch(dev.dashboardSignInUrl)).status, 200);
    const answer = await fetch(`${dev.baseUrl}/catalog`, { headers: { "x-api-key": dev.apiKey } });
    assert.equal(answer.status, 200);
  } finally {
    stack.child.kill("SIGTERM");
    await stack.exited;
  }
});

test("GATEWAY_PUBLIC_BASE_URL is what the banner, dev.json and the dashboard's Overview and curl example show, not the gateway's loopback listener", async (t) => {
  const ownDir = mkdtempSync(join(tmpdir(), "hub-start-public-"));
  t.after(() => rmSync(ownDir, { recursive: true, force: true }));
  const publicBaseUrl = "https://api.example.com/v1";
  const stack = startIn(join(ownDir, "data"), { LOG_LEVEL: "info", GATEWAY_PUBLIC_BASE_URL: publicBaseUrl });
  try {
    await untilReady(stack);
    const dev = JSON.parse(readFileSync(join(ownDir, "data", "dev.json"), "utf8")) as DevFile;
    assert.equal(dev.baseUrl, publicBaseUrl);
    assert.match(dev.gatewayListenerUrl, /^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    assert.match(stack.stdout(), new RegExp(`^gateway \\(API\\) +${dev.gatewayListenerUrl}$`, "m"));
    assert.match(stack.stdout(), /^public API +https:\/\/api\.example\.com\/v1$/m);
    assert.match(stack.stdout(), /^ready in \d+ ms: https:\/\/api\.example\.com\/v1$/m);
    // The listener still serves the key: the public URL only names what is in front of it.
    const answer = await fetch(`${dev.gatewayListenerUrl}/catalog`, { headers: { "x-api-key": dev.apiKey } });
    assert.equal(answer.status, 200);

    const signedIn = await fetch(dev.dashboardSignInUrl, {
      method: "POST",
      redirect: "manual",
      headers: { origin: dev.dashboardUrl, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ password: "a development password", confirm: "a development password" }),
    });
    assert.equal(signedIn.status, 303);
    const session = signedIn.headers
      .getSetCookie()
      .find((cookie) => cookie.startsWith("hub_session="))
      ?.split(";")[0];
    assert.ok(session, "the sign-in link sets a session");
    const overview = await fetch(dev.dashboardUrl, { headers: { cookie: session } });
    assert.equal(overview.status, 200);
    const overviewHtml = await overview.text();
    assert.match(
      overviewHtml,
      /id="base-url"[^>]*value="https:\/\/api\.example\.com\/v1"|value="https:\/\/api\.example\.com\/v1"[^>]*id="base-url"/,
    );
    assert.ok(
      overviewHtml.includes("curl -s https://api.example.com/v1/catalog -H"),
      "the curl example calls the public base URL",
    );
    assert.ok(!overviewHtml.includes(dev.gatewayListenerUrl), "the loopback listener is not shown");
    const docs = await (await fetch(`${dev.dashboardUrl}/docs`)).text();
    assert.ok(docs.includes(`<code>${publicBaseUrl}</code>`), "the docs page names the public base URL");
  } finally {
    stack.child.kill("SIGTERM");
    assert.equal(await stack.exited, 0);
  }
});

test("hub start runs through tsx when its bundle cannot be made, and the stack still starts", async (t) => {
  const ownDir = mkdtempSync(join(tmpdir(), "hub-start-tsx-"));
  t.after(() => rmSync(ownDir, { recursive: true, force: true }));
  // The bundle's folder would be under a file: it cannot be made.
  writeFileSync(join(ownDir, "not-a-folder"), "");
  const stack = startIn(join(ownDir, "data"), {
    HUB_START_BUNDLE_DIR: join(ownDir, "not-a-folder", "bundle"),
  });
  try {
    await untilReady(stack);
    assert.match(stack.output(), /^hub start runs through tsx: the start bundle could not be made \(.+\)$/m);
    const dev = JSON.parse(readFileSync(join(ownDir, "data", "dev.json"), "utf8")) as DevFile;
    const answer = await fetch(`${dev.baseUrl}/catalog`, { headers: { "x-api-key": dev.apiKey } });
    assert.equal(answer.status, 200);
  } finally {
    stack.child.kill("SIGTERM");
    assert.equal(await stack.exited, 0);
  }
});

test("on the npm start stack a wallet's EIP-3009 order goes from quote to a SETTLED list entry, through the devnet aggregator of each dialect", async () => {
  const stack = startStack();
  try {
    await untilReady(stack);
    const dev = JSON.parse(readFileSync(join(dataDir, "dev.json"), "utf8")) as DevFile;
    const api = devApi(dev, "npm-start-wallet");
    const catalog = await api<{ families: { evm: { assets: { symbol: string; key: string }[] }[] } }>(
      "GET",
      "/catalog",
    );
    const [origin, destination] = catalog.data.families.evm as [Chain, Chain];
    type Chain = { assets: { symbol: string; key: string }[] };
    const usdc = (chain: Chain) => chain.assets.find((asset) => asset.symbol === "USDC")!.key;
    const wallet = privateKeyToAccount(dev.accounts[2]!.privateKey as `0x${string}`);
    // npm start configures the devnet's OIF aggregator in both dialects: one order through each.
    for (const provider of ["devnet.alpha", "devnet-reference.alpha"]) {
      const quote = await api<{
        lane: string;
        quoteRequestId: string;
        quoteId: string;
        onchainOrderId: string;
        signPayload: { payload: Parameters<typeof wallet.signTypedData>[0] };
      }>("POST", "/quote/prepare", {
        sourceAsset: usdc(origin),
        destinationAsset: usdc(destination),
        amount: "1500000",
        recipient: wallet.address,
        sourceAccount: wallet.address,
        // The default stack also quotes the external aggregator, whose bridge may offer more: choose the OIF solver.
        preparationId: `hub-start-eip3009-${provider}`,
        provider,
      });
      assert.equal(quote.success, true, JSON.stringify(quote));
      assert.equal(quote.data.lane, "aggregator-gasless");
      const signature = await wallet.signTypedData(quote.data.signPayload.payload);
      const ack = await api<{ orderId: string; hubOrderId: string }>("POST", "/order/openfor", {
        quoteRequestId: quote.data.quoteRequestId,
        quoteId: quote.data.quoteId,
        signature,
      });
      assert.equal(ack.success, true, JSON.stringify(ack));
      assert.equal(ack.data.orderId, quote.data.onchainOrderId);
      let status: string | undefined;
      await pollUntil(
        () => `the list entry to read SETTLED; it stayed at ${status ?? "no chain object"}`,
        async () => {
          const list = await api<{ orders: { orderId: string; chain?: { status: string } }[] }>(
            "GET",
            "/orders",
          );
          const entry = list.data.orders.find(
            (order: { orderId: string }) => order.orderId === ack.data.hubOrderId,
          );
          status = entry?.chain?.status;
          return status === "SETTLED";
        },
        { timeoutMs: 60_000, intervalMs: 500 },
      );
      const upstream = await api<unknown>("GET", `/order/${ack.data.hubOrderId}/status`);
      assert.equal(upstream.success, true, JSON.stringify(upstream));
    }
  } finally {
    stack.child.kill("SIGTERM");
    await stack.exited;
  }
});

test("on the npm start stack a wallet's open-flow order goes from quote through POST /order to released on GET /status", async () => {
  const stack = startStack();
  try {
    await untilReady(stack);
    const dev = JSON.parse(readFileSync(join(dataDir, "dev.json"), "utf8")) as DevFile;
    const api = devApi(dev, "npm-start-open-flow");
    type Chain = { chainDomain: string; assets: { symbol: string; key: string }[] };
    const catalog = await api<{ families: { evm: Chain[] } }>("GET", "/catalog");
    const [origin, destination] = catalog.data.families.evm as [Chain, Chain];
    const usdc = (chain: Chain) => chain.assets.find((asset) => asset.symbol === "USDC")!.key;
    const account = privateKeyToAccount(dev.accounts[3]!.privateKey as `0x${string}`);
    type Tx = { chainId: string; to: `0x${string}`; data: `0x${string}`; value: string };
    const quote = await api<{
      lane: string;
      quoteId: string;
      signIntent: string;
      disclosure: { signableHash: string };
      executionTx: {
        approvals: { chainId: string; token: `0x${string}`; spender: `0x${string}`; amount: string }[];
        steps: Tx[];
      };
    }>("POST", "/quote/prepare", {
      sourceAsset: usdc(origin),
      destinationAsset: usdc(destination),
      amount: "1500000",
      recipient: account.address,
      sourceAccount: account.address,
      // The external aggregator the default stack configures beside the OIF one.
      preparationId: "hub-start-open-flow",
      provider: "devnet-external.devnet-bridge",
    });
    assert.equal(quote.success, true, JSON.stringify(quote));
    assert.equal(quote.data.lane, "open-flow");
    const walletOn = (chainDomain: string) => {
      const chain = dev.chains.find((entry) => entry.chainDomain === chainDomain);
      assert.ok(chain, `executionTx names a chain of the stack: ${chainDomain}`);
      return createWalletClient({ account, transport: http(chain.rpcUrl) }).extend(publicActions);
    };
    const mined = async (client: ReturnType<typeof walletOn>, hash: `0x${string}`) => {
      const receipt = await client.waitForTransactionReceipt({ hash });
      assert.equal(receipt.status, "success");
    };
    for (const approval of quote.data.executionTx.approvals) {
      const client = walletOn(approval.chainId);
      const hash = await client.writeContract({
        chain: null,
        address: approval.token,
        abi: erc20Abi,
        functionName: "approve",
        args: [approval.spender, BigInt(approval.amount)],
      });
      await mined(client, hash);
    }
    for (const step of quote.data.executionTx.steps) {
      const client = walletOn(step.chainId);
      const hash = await client.sendTransaction({
        chain: null,
        to: step.to,
        data: step.data,
        value: BigInt(step.value),
      });
      await mined(client, hash);
    }
    const ack = await api<{ orderId: string; quoteId: string }>("POST", "/order", {
      quoteId: quote.data.quoteId,
      artifactHash: quote.data.disclosure.signableHash,
      signature: await account.signMessage({ message: quote.data.signIntent }),
      signer: account.address,
      scheme: "eip191",
    });
    assert.equal(ack.success, true, JSON.stringify(ack));
    assert.equal(ack.data.quoteId, quote.data.quoteId);
    let state: string | undefined;
    await pollUntil(
      () => `GET /status to read released; it stayed at ${state}`,
      async () => {
        const status = await api<{ state: string; final: boolean }>("GET", `/status/${ack.data.orderId}`);
        assert.equal(status.success, true, JSON.stringify(status));
        state = status.data.state;
        return state === "released";
      },
      { timeoutMs: 60_000, intervalMs: 500 },
    );
  } finally {
    stack.child.kill("SIGTERM");
    await stack.exited;
  }
});
