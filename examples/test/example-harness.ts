import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before } from "node:test";
import { promisify } from "node:util";
import { startReadyStack } from "@hub/cli-app/test-stack";
import { createHubClient, type OrdersList } from "@intent-hub/sdk";

const root = new URL("../../", import.meta.url).pathname;

export interface ExampleHarness {
  /** The stack started as `npm start` starts it, before the file's first test. */
  readonly stack: Awaited<ReturnType<typeof startReadyStack>>;
  /** Runs `npm run example -- <lane>` as a newcomer runs it against the stack; its printed lines. */
  runExample(lane: string): Promise<string[]>;
  /** The SDK's history read on the subject an example's first line names, and the hubOrderId it printed. */
  listedOrders(
    lines: string[],
  ): Promise<{ subject: string; hubOrderId: string | undefined; page: OrdersList }>;
}

/** Starts a stack in a fresh data directory before the file's tests, and stops and removes it after. */
export function exampleHarness(options: { dataDirPrefix: string; timeoutMs: number }): ExampleHarness {
  const dataDir = mkdtempSync(join(tmpdir(), options.dataDirPrefix));
  let stack: Awaited<ReturnType<typeof startReadyStack>> | undefined;
  before(async () => {
    stack = await startReadyStack(dataDir);
  });
  after(async () => {
    await stack?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });
  const started = () => {
    if (!stack) throw new Error("the stack is started before the first test");
    return stack;
  };
  return {
    get stack() {
      return started();
    },
    async runExample(lane) {
      const { stdout } = await promisify(execFile)("npm", ["run", "--silent", "example", "--", lane], {
        cwd: root,
        env: { ...process.env, HUB_DATA_DIR: dataDir },
        timeout: options.timeoutMs,
      }).catch((error: { stdout?: string; stderr?: string; message: string }) => {
        throw new Error(`example ${lane} failed: ${error.message}\n${error.stdout}\n${error.stderr}`);
      });
      return stdout.trim().split("\n");
    },
    async listedOrders(lines) {
      const subject = /as (example-\S+),/.exec(lines[0]!)?.[1];
      assert.ok(subject, lines[0]);
      const hubOrderId = /hubOrderId ([0-9a-f]{64})/.exec(lines.join("\n"))?.[1];
      const { dev } = started();
      const client = createHubClient({ baseUrl: dev.baseUrl, apiKey: dev.apiKey, subject });
      return { subject, hubOrderId, page: await client.listOrders() };
    },
  };
}

/** The labels of the printed steps, in order, each once. */
export function stepsOf(lines: string[]): string[] {
  const labels = lines.map((line) => line.split(/\s+/)[0]!);
  return labels.filter((label, index) => labels.indexOf(label) === index);
}
