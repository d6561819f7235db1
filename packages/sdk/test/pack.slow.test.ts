import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";

// The package as a stranger gets it: `npm pack`, the tarball installed into a fresh project outside the
// workspace (npm from the registry for the peers), imported from plain JavaScript by node, and a client
// type-checked by tsc under `nodenext` and `bundler` resolution.

const packageDir = new URL("..", import.meta.url).pathname;
const require = createRequire(import.meta.url);
const tsc = require.resolve("typescript/bin/tsc");
/** The version the workspace has installed (@solana/kit does not export its package.json). */
const versionOf = (name: string) =>
  JSON.parse(readFileSync(join(packageDir, "../../node_modules", name, "package.json"), "utf8")).version;
const work = mkdtempSync(join(tmpdir(), "intent-hub-sdk-pack-"));
const consumer = join(work, "consumer");
let tarball = "";

/**
 * The environment of a process outside the workspace: no `--conditions=source` (the workspace's way to
 * the TypeScript sources, which the tarball does not hold), no npm_* variables of the npm run around us.
 */
const env = Object.fromEntries(
  Object.entries(process.env)
    .filter(([name]) => !name.startsWith("npm_"))
    .map(([name, value]) => [
      name,
      name === "NODE_OPTIONS" ? value?.replace(/--conditions[= ]source/g, "") : value,
    ]),
);
const run = (command: string, args: string[], cwd: string) =>
  execFileSync(command, args, { cwd, env, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
const npm = (args: string[], cwd: string) =>
  run("npm", [...args, "--no-audit", "--no-fund", "--loglevel=error"], cwd);

before(() => {
  const [packed] = JSON.parse(run("npm", ["pack", "--json", "--pack-destination", work], packageDir));
  tarball = join(work, packed.filename);
  mkdirSync(consumer);
  writeFileSync(
    join(consumer, "package.json"),
    JSON.stringify({ name: "consumer", private: true, type: "module" }),
  );
});
after(() => rmSync(work, { recursive: true, force: true }));

test("npm pack holds the built files, the licence, the changelog and the readme; no sources, tests or scripts", () => {
  const listed = run("tar", ["-tzf", tarball], work)
    .trim()
    .split("\n")
    .map((path) => path.replace(/^package\//, ""));
  for (const file of [
    "package.json",
    "LICENSE",
    "CHANGELOG.md",
    "README.md",
    "dist/index.js",
    "dist/index.d.ts",
  ]) {
    assert.ok(listed.includes(file), `${file} is packed`);
  }
  for (const entry of ["index", "viem", "solana", "wallet-standard"]) {
    for (const suffix of [".js", ".d.ts", ".js.map"])
      assert.ok(listed.includes(`dist/${entry}${suffix}`), entry + suffix);
  }
  assert.deepEqual(
    listed.filter(
      (path) =>
        !/^(dist\/[\w-]+\.(js|d\.ts|js\.map)|package\.json|LICENSE|CHANGELOG\.md|README\.md)$/.test(path),
    ),
    [],
    "nothing else",
  );
  const manifest = JSON.parse(run("tar", ["-xzOf", tarball, "package/package.json"], work));
  assert.equal(manifest.name, "@intent-hub/sdk");
  assert.match(manifest.version, /^\d+\.\d+\.\d+$/);
  assert.equal(manifest.license, "MIT");
});

test("installed alone it brings no dependency; plain JavaScript imports the core and the Wallet Standard entry; the viem entry needs its peer", () => {
  npm(["install", tarball], consumer);
  assert.deepEqual(
    readdirSync(join(consumer, "node_modules")).filter((name) => !name.startsWith(".")),
    ["@intent-hub"],
    "only the package itself",
  );
  writeFileSync(
    join(consumer, "core.mjs"),
    `import { createHubClient, HubError, WalletRejectedError, hubOrderIdOf } from "@intent-hub/sdk";
import { walletStandardSolanaWallet } from "@intent-hub/sdk/wallet-standard";
const client = createHubClient({ baseUrl: "http://127.0.0.1:1/v1", projectId: "proj_x", subject: "s" });
const rejected = new WalletRejectedError({ message: "no" });
console.log(JSON.stringify({
  client: Object.keys(client).sort(),
  block: new HubError({ code: "EIN0080", status: 400 }).block,
  rejected: [rejected instanceof HubError, rejected.kind, rejected.code],
  id: await hubOrderIdOf("q"),
  walletStandard: typeof walletStandardSolanaWallet,
}));
`,
  );
  const out = JSON.parse(run(process.execPath, ["core.mjs"], consumer));
  assert.ok(out.client.includes("submit") && out.client.includes("track"));
  assert.equal(out.block, "busy");
  assert.deepEqual(out.rejected, [true, "user-rejected", "ESDK_WALLET_REJECTED"]);
  assert.match(out.id, /^[0-9a-f]{64}$/);
  assert.equal(out.walletStandard, "function");
  assert.throws(
    () =>
      run(process.execPath, ["--input-type=module", "-e", 'await import("@intent-hub/sdk/viem")'], consumer),
    /Cannot find package 'viem'/,
  );
  // The exports map is the whole surface: a deep import is refused.
  assert.throws(
    () =>
      run(
        process.execPath,
        ["--input-type=module", "-e", 'await import("@intent-hub/sdk/dist/client.js")'],
        consumer,
      ),
    /ERR_PACKAGE_PATH_NOT_EXPORTED/,
  );
});

test("with its peers viem and @solana/kit, the wallet entries load from JavaScript and a strict client type-checks under nodenext and bundler", () => {
  npm(["install", `viem@${versionOf("viem")}`, `@solana/kit@${versionOf("@solana/kit")}`], consumer);
  writeFileSync(
    join(consumer, "wallets.mjs"),
    `import { privateKeyToAccount } from "viem/accounts";
import { generateKeyPairSigner } from "@solana/kit";
import { viemWalletOverHttp } from "@intent-hub/sdk/viem";
import { solanaWallet } from "@intent-hub/sdk/solana";
const evm = viemWalletOverHttp(privateKeyToAccount("0x${"11".repeat(32)}"), { 31337: "http://127.0.0.1:1" });
const signer = await generateKeyPairSigner();
const solana = await solanaWallet(signer);
console.log(JSON.stringify([evm.address, solana.address === signer.address]));
`,
  );
  const [evmAddress, sameSolana] = JSON.parse(run(process.execPath, ["wallets.mjs"], consumer));
  assert.match(evmAddress, /^0x[0-9a-fA-F]{40}$/);
  assert.equal(sameSolana, true);

  writeFileSync(
    join(consumer, "client.ts"),
    `import {
  createHubClient,
  HubError,
  type QuoteWinner,
  type SubmittedOrder,
  type UpstreamState,
  WalletRejectedError,
} from "@intent-hub/sdk";
import { walletClientWallet } from "@intent-hub/sdk/viem";
import { type StandardWallet, walletStandardSolanaWallet } from "@intent-hub/sdk/wallet-standard";
import { createWalletClient, custom, type EIP1193Provider } from "viem";

const client = createHubClient({ baseUrl: "https://hub.example/v1", projectId: "proj_x", subject: "visitor" });

export async function pay(provider: EIP1193Provider, winner: QuoteWinner): Promise<SubmittedOrder | "user-rejected"> {
  const [account] = await provider.request({ method: "eth_requestAccounts" });
  const walletClient = createWalletClient({ account: account!, transport: custom(provider) });
  try {
    return await client.submit(winner, walletClientWallet(walletClient, { onChainMismatch: "switch" }));
  } catch (error) {
    if (error instanceof WalletRejectedError) return error.kind;
    if (error instanceof HubError && error.sent.length > 0) throw error;
    throw error;
  }
}

export async function paySolana(wallet: StandardWallet, winner: QuoteWinner) {
  return client.submit(winner, await walletStandardSolanaWallet(wallet, { chain: "solana:devnet" }));
}

export const stop: UpstreamState[] = ["finalized", "failed", "refunded"];
// @ts-expect-error: "done" is no upstream state
export const wrong: UpstreamState = "done";
`,
  );
  for (const [module, moduleResolution] of [
    ["nodenext", "nodenext"],
    ["esnext", "bundler"],
  ]) {
    writeFileSync(
      join(consumer, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          noEmit: true,
          strict: true,
          module,
          moduleResolution,
          target: "es2022",
          lib: ["es2023", "dom"],
          types: [],
          skipLibCheck: true,
        },
        files: ["client.ts"],
      }),
    );
    try {
      run(process.execPath, [tsc, "-p", consumer], consumer);
    } catch (error) {
      assert.fail(`tsc (${moduleResolution}): ${(error as { stdout?: string }).stdout}`);
    }
  }
});
