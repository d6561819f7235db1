import assert from "node:assert/strict";
import { test } from "node:test";
import { pollUntil } from "@hub/test-support";
import { pino } from "pino";
import { createPollLoop } from "../src/create-poll-loop.js";

const logger = pino({ level: "silent" });

test("stop waits for the tick in flight and no tick runs after it", async () => {
  let ticks = 0;
  let finishTick: () => void = () => {};
  const loop = createPollLoop({ name: "test", intervalMs: 1, logger }, async () => {
    ticks++;
    await new Promise<void>((resolve) => {
      finishTick = resolve;
    });
  });
  loop.start();
  await pollUntil("the first tick", async () => ticks === 1);
  let stopped = false;
  const stopping = loop.stop().then(() => {
    stopped = true;
  });
  await Promise.resolve();
  assert.equal(stopped, false, "stop returned while a tick was running");
  finishTick();
  await stopping;
  const after = ticks;
  loop.wake();
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(ticks, after);
});

test("a failing tick is logged and the loop keeps going; wake runs a tick without waiting out the interval", async () => {
  let ticks = 0;
  const loop = createPollLoop({ name: "test", intervalMs: 60_000, logger }, async () => {
    ticks++;
    if (ticks === 1) throw new Error("first tick fails");
  });
  loop.start();
  await pollUntil("the first tick", async () => ticks === 1);
  loop.wake();
  await pollUntil("a woken tick after the failure", async () => ticks === 2, { timeoutMs: 2000 });
  await loop.stop();
});

test("a tick failing the same way again and again is logged once, and its recovery once", async () => {
  const lines: string[] = [];
  const recording = pino(
    { level: "info" },
    {
      write(line: string) {
        lines.push(JSON.parse(line).msg);
      },
    },
  );
  let ticks = 0;
  const loop = createPollLoop({ name: "test", intervalMs: 1, logger: recording }, async () => {
    ticks++;
    if (ticks <= 5) throw new Error("node down");
  });
  loop.start();
  await pollUntil("ticks past the failures", async () => ticks >= 7);
  await loop.stop();
  assert.deepEqual(lines, ["poll tick failed", "poll tick recovered"]);
});
