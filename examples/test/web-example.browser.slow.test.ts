import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { type DevFile, startStack, untilReady } from "@hub/cli-app/test-stack";
import { createHubClient } from "@intent-hub/sdk";
import { pollUntil } from "@hub/test-support";
import { type BrowserContext, chromium, type Page } from "playwright-core";
import { createPublicClient, createWalletClient, erc20Abi, type Hex, http } from "viem";
import { privateKeyToAccount } from "viem/accounts";

// The web example (examples/web) in a real browser against a stack started as `npm start` starts it, served
// as `npm run example:web` serves it. The visitor's wallet is an EIP-1193 provider injected into the page:
// it answers accounts and chain itself, and hands every signature, transaction and chain read to this test,
// which signs with a devnet account (viem, locally) and sends raw transactions to the devnet's anvil.
const CHROMIUM = "/usr/bin/chromium";
const missing = !existsSync(CHROMIUM);
if (missing && process.env.CI === "true")
  throw new Error(`${CHROMIUM} is missing: CI installs the chromium package (.ci/run)`);
const skip = missing
  ? `${CHROMIUM} is missing (apt-get install -y chromium): the browser suite is skipped`
  : false;
if (skip) console.log(`# ${skip}`);

const root = new URL("../../", import.meta.url).pathname;
const dataDir = mkdtempSync(join(tmpdir(), "hub-web-example-"));
const shots = join(dataDir, "screenshots");
let stack: ReturnType<typeof startStack> | undefined;
let server: ChildProcess | undefined;
let dev: DevFile;
let pageUrl: string;
let context: BrowserContext;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

before(async () => {
  if (skip) return;
  mkdirSync(shots, { recursive: true });
  // The page's origin is the one the stack allows for its development project (HUB_DEV_WEB_ORIGIN).
  const port = await freePort();
  pageUrl = `http://127.0.0.1:${port}`;
  // The dashboard's origin too (HUB_DEV_ORIGIN): its API reference's console calls the gateway from there.
  const dashboardPort = await freePort();
  stack = startStack(dataDir, {
    HUB_DEV_WEB_ORIGIN: pageUrl,
    DASHBOARD_PORT: String(dashboardPort),
    HUB_DEV_ORIGIN: `http://127.0.0.1:${dashboardPort}`,
    // One address runs every lane's swap back to back, faster than a person: a swap is three
    // quote-cost calls (preview, quote, submit) and the default visitor bucket holds four, then one
    // per 8 s (docs/gateway.md). A bucket of twenty keeps the page's console free of EPX0082's 429s.
    GATEWAY_VISITOR_BURST: "2400",
  });
  await untilReady(stack);
  dev = JSON.parse(readFileSync(join(dataDir, "dev.json"), "utf8")) as DevFile;
  assert.equal(dev.webOrigin, pageUrl);

  let printed = "";
  server = spawn(process.execPath, ["--import", "tsx", "examples/web/serve.ts"], {
    cwd: root,
    env: { ...process.env, HUB_DATA_DIR: dataDir, EXAMPLE_WEB_PORT: String(port) },
    stdio: ["ignore", "pipe", "pipe"],
  });
  server.stdout?.on("data", (chunk: Buffer) => {
    printed += chunk.toString();
  });
  server.stderr?.on("data", (chunk: Buffer) => {
    printed += chunk.toString();
  });
  await pollUntil("the web example's line", () => printed.includes(`web example     ${pageUrl}/`), {
    timeoutMs: 60_000,
    intervalMs: 100,
  }).catch((error: Error) => {
    throw new Error(`${error.message}\n${printed}`);
  });
  assert.doesNotMatch(printed, /warning/, "the stack allows the page's origin");

  context = await chromium.launchPersistentContext(join(dataDir, "chromium"), {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
    viewport: { width: 1100, height: 900 },
  });
});

after(async () => {
  await context?.close();
  if (server && server.exitCode === null) {
    const exited = new Promise((resolve) => server?.once("exit", resolve));
    server.kill("SIGTERM");
    await exited;
  }
  if (stack) {
    stack.child.kill("SIGTERM");
    await stack.exited;
  }
  rmSync(dataDir, { recursive: true, force: true });
});

async function shot(page: Page, name: string, fullPage = true): Promise<void> {
  const path = join(shots, `${name}.png`);
  await page.screenshot({ path, fullPage });
  // Also where a person (or a helper) looks at them after the run.
  copyFileSync(path, `/tmp/web-example-${name}.png`);
  console.log(`# screenshot ${path}`);
}

/** What the wallet was asked to do, in order. */
type WalletCall = { method: string; chainId: number };

/**
 * A page whose window.ethereum is a devnet account's wallet, starting on `startChainId`. Signatures and
 * transactions are made here with viem's local account; every other call goes to the chain's RPC.
 */
async function pageWithWallet(accountIndex: number, startChainId: number) {
  const account = privateKeyToAccount(dev.accounts[accountIndex]!.privateKey as Hex);
  const rpcUrls = new Map(dev.chains.map((chain) => [chain.chainId, chain.rpcUrl]));
  const calls: WalletCall[] = [];
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  const gatewayCalls: Record<string, string>[] = [];
  page.on("request", (request) => {
    if (request.url().startsWith(dev.baseUrl) && request.method() !== "OPTIONS")
      gatewayCalls.push(request.headers());
  });

  await page.exposeFunction(
    "__devnetWallet",
    async (method: string, paramsJson: string, chainId: number): Promise<string> => {
      const params = JSON.parse(paramsJson) as unknown[];
      const rpcUrl = rpcUrls.get(chainId);
      if (!rpcUrl) throw new Error(`4902: the wallet knows no chain ${chainId}`);
      const record = () => calls.push({ method, chainId });
      switch (method) {
        case "wallet_switchEthereumChain":
          record();
          return "null";
        case "eth_signTypedData_v4": {
          record();
          const typed = JSON.parse(params[1] as string);
          const { EIP712Domain: _domain, ...types } = typed.types;
          const signature = await account.signTypedData({
            domain: typed.domain,
            types,
            primaryType: typed.primaryType,
            message: typed.message,
          });
          return JSON.stringify(signature);
        }
        case "personal_sign": {
          record();
          return JSON.stringify(await account.signMessage({ message: { raw: params[0] as Hex } }));
        }
        case "eth_sendTransaction": {
          record();
          const tx = params[0] as { to: Hex; data?: Hex; value?: Hex; gas?: Hex };
          const wallet = createWalletClient({ account, transport: http(rpcUrl) });
          const hash = await wallet.sendTransaction({
            chain: null,
            to: tx.to,
            ...(tx.data ? { data: tx.data } : {}),
            ...(tx.value ? { value: BigInt(tx.value) } : {}),
            ...(tx.gas ? { gas: BigInt(tx.gas) } : {}),
          });
          return JSON.stringify(hash);
        }
        default: {
          const answer = await fetch(rpcUrl, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
          });
          const body = (await answer.json()) as { result?: unknown; error?: { message: string } };
          if (body.error) throw new Error(body.error.message);
          return JSON.stringify(body.result ?? null);
        }
      }
    },
  );
  await page.addInitScript({ content: injectedProvider(account.address.toLowerCase(), startChainId) });
  await page.goto(`${pageUrl}/`);
  await page.locator("body[data-ready=true]").waitFor({ timeout: 60_000 });
  return { page, account, calls, errors, gatewayCalls };
}

/**
 * The EIP-1193 provider the page finds as window.ethereum: accounts and the chain it answers itself, a
 * chain switch it reports to the test and announces (chainChanged), everything else it hands to the
 * test's __devnetWallet. Plain JavaScript in a string: tsx's helpers do not exist in the page.
 */
function injectedProvider(address: string, chainId: number): string {
  return `(() => {
  const listeners = new Map();
  let current = ${chainId};
  const hex = (id) => "0x" + id.toString(16);
  window.ethereum = {
    async request({ method, params }) {
      if (method === "eth_requestAccounts" || method === "eth_accounts") return [${JSON.stringify(address)}];
      if (method === "eth_chainId") return hex(current);
      if (method === "net_version") return String(current);
      if (method === "wallet_switchEthereumChain") {
        const next = Number(params[0].chainId);
        await window.__devnetWallet(method, JSON.stringify(params), next);
        current = next;
        for (const listener of listeners.get("chainChanged") ?? []) listener(hex(next));
        return null;
      }
      return JSON.parse(await window.__devnetWallet(method, JSON.stringify(params ?? []), current));
    },
    on(event, listener) {
      listeners.set(event, [...(listeners.get(event) ?? []), listener]);
    },
    removeListener(event, listener) {
      listeners.set(event, (listeners.get(event) ?? []).filter((entry) => entry !== listener));
    },
  };
})();`;
}

/** The catalog as the page sees it (through the project id). */
async function catalog() {
  const client = createHubClient({ baseUrl: dev.baseUrl, apiKey: dev.apiKey, subject: "web-example-test" });
  const { evm } = (await client.getCatalog()).families;
  return { origin: evm[0]!, destination: evm[1]! };
}

/** Picks the pair, asks for offers, chooses the lane's offer, reviews, signs and follows to the final state. */
async function swapInPage(
  page: Page,
  input: { source: string; destination: string; amount: string; lane: string; name: string },
) {
  await page.getByRole("button", { name: "Connect wallet" }).click();
  await page.locator("#connect[data-address]").waitFor();
  await page.locator("#source-asset").selectOption(input.source);
  await page.locator("#destination-asset").selectOption(input.destination);
  await page.locator("#amount").fill(input.amount);
  await shot(page, `${input.name}-1-request`);
  await page.getByRole("button", { name: "Get offers" }).click();
  const offer = page.locator(`li.offer[data-lane="${input.lane}"]`).first();
  await offer.waitFor({ timeout: 60_000 });
  await shot(page, `${input.name}-2-offers`);
  await offer.getByRole("button", { name: "Choose" }).click();
  await page.locator(`#review[data-lane="${input.lane}"]`).waitFor({ state: "visible", timeout: 60_000 });
  await shot(page, `${input.name}-3-review`);
  await page.getByRole("button", { name: "Sign and submit" }).click();
  await page.locator("#facts[data-status]").waitFor({ timeout: 180_000 });
  await shot(page, `${input.name}-4-final`);
  return {
    status: await page.locator("#facts").getAttribute("data-status"),
    paid: ((await page.locator("#facts").getAttribute("data-paid")) ?? "").split(",").filter(Boolean),
    steps: await page
      .locator("#steps li")
      .evaluateAll((items) =>
        items.map((item) => (item as unknown as { dataset: { step: string } }).dataset.step),
      ),
  };
}

async function tokenBalance(chainId: number, token: string, owner: string): Promise<bigint> {
  const rpcUrl = dev.chains.find((chain) => chain.chainId === chainId)!.rpcUrl;
  return createPublicClient({ transport: http(rpcUrl) }).readContract({
    address: token as Hex,
    abi: erc20Abi,
    functionName: "balanceOf",
    args: [owner as Hex],
  });
}

test("in a real browser, the gasless EIP-3009 lane: the page switches the wallet's chain, gets one signature, submits with the project id and follows the order to SETTLED", {
  skip,
  timeout: 300_000,
}, async () => {
  const { origin, destination } = await catalog();
  const usdc = (chain: typeof origin) => chain.assets.find((asset) => asset.symbol === "USDC")!;
  const { page, account, calls, errors, gatewayCalls } = await pageWithWallet(3, destination.chainId);
  const before = await tokenBalance(destination.chainId, usdc(destination).address!, account.address);

  const result = await swapInPage(page, {
    source: usdc(origin).key,
    destination: usdc(destination).key,
    amount: "1.2",
    lane: "aggregator-gasless",
    name: "eip3009",
  });

  assert.equal(result.status, "SETTLED");
  assert.ok(result.paid.length > 0 && result.paid.every((amount) => BigInt(amount) > 0n), result.paid.join());
  assert.deepEqual(calls, [
    { method: "wallet_switchEthereumChain", chainId: origin.chainId },
    { method: "eth_signTypedData_v4", chainId: origin.chainId },
  ]);
  assert.deepEqual(result.steps.slice(0, 2), ["signed", "acked"]);
  const received =
    (await tokenBalance(destination.chainId, usdc(destination).address!, account.address)) - before;
  assert.equal(
    received,
    result.paid.map(BigInt).reduce((sum, amount) => sum + amount, 0n),
  );
  // The page spoke with the project id alone, under one visitor subject.
  assert.ok(gatewayCalls.length > 0);
  for (const headers of gatewayCalls) {
    assert.equal(headers["x-project-id"], dev.projectId);
    assert.equal(headers["x-api-key"], undefined);
    assert.match(headers["x-service-subject"] ?? "", /^visitor-/);
  }
  assert.deepEqual(errors, []);
});

test("in a real browser, the wrap-native lane: the wallet sends the step transaction (signed here, sent raw to anvil), the page registers it and follows the order to SETTLED", {
  skip,
  timeout: 300_000,
}, async () => {
  const { origin, destination } = await catalog();
  assert.ok(destination.wrappedKey, "the destination chain has a wrapped native token");
  const wrapped = destination.assets.find((asset) => asset.key === destination.wrappedKey)!;
  const { page, account, calls, errors } = await pageWithWallet(4, origin.chainId);
  const before = await tokenBalance(destination.chainId, wrapped.address!, account.address);

  const result = await swapInPage(page, {
    source: origin.nativeKey,
    destination: destination.wrappedKey,
    amount: "0.3",
    lane: "oif-wrap-native",
    name: "wrap-native",
  });

  assert.equal(result.status, "SETTLED");
  assert.ok(result.paid.length > 0 && result.paid.every((amount) => BigInt(amount) > 0n), result.paid.join());
  assert.deepEqual(
    calls.map((call) => call.method),
    ["eth_sendTransaction"],
    "already on the source chain: no switch, one transaction, no signature",
  );
  assert.equal(calls[0]!.chainId, origin.chainId);
  assert.deepEqual(result.steps.slice(0, 3), ["sent", "mined", "acked"]);
  const received = (await tokenBalance(destination.chainId, wrapped.address!, account.address)) - before;
  assert.equal(
    received,
    result.paid.map(BigInt).reduce((sum, amount) => sum + amount, 0n),
  );
  assert.deepEqual(errors, []);
});

test("in a real browser, the dashboard's API reference: a signed-in member's console is prefilled with the project id and GET /catalog sent from it answers the catalog", {
  skip,
  timeout: 180_000,
}, async () => {
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  assert.ok(dev.dashboardSignInUrl);
  await page.goto(dev.dashboardSignInUrl);
  await page.getByLabel("New password").fill("a long browser password");
  await page.getByLabel("Confirm password").fill("a long browser password");
  await page.getByRole("button", { name: "Set password and sign in" }).click();
  await page.getByRole("link", { name: "API keys", exact: true }).first().waitFor();

  await page.goto(`${dev.dashboardUrl}/docs/api`);
  await page.getByRole("heading", { name: /Intent swap and bridge hub API/ }).waitFor({ timeout: 60_000 });
  const config = JSON.parse((await page.locator("#reference-config").textContent()) ?? "{}");
  assert.deepEqual(config, { apiBaseUrl: dev.baseUrl, projectId: dev.projectId, signedIn: true });
  await page.getByText("The deployment's chains and assets").first().click();
  const catalogCall = page.waitForResponse(
    (response) => response.url() === `${dev.baseUrl}/catalog` && response.request().method() === "GET",
  );
  await page
    .getByRole("button", { name: /Test Request/ })
    .first()
    .click();
  await page.getByRole("button", { name: /^Send/ }).first().click();
  const answer = await catalogCall;
  assert.equal(answer.status(), 200);
  assert.equal(answer.request().headers()["x-project-id"], dev.projectId);
  await page.getByText('"families"').first().waitFor({ timeout: 30_000 });
  await shot(page, "docs-console-catalog", false);
  assert.deepEqual(errors, []);
});
