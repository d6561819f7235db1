import { type ChildProcess, spawn } from "node:child_process";
import { connect } from "node:net";
import { freePort } from "./free-port.js";
import type { PrivateServer } from "./private-server.js";

function answers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

/**
 * A Redis server of its own on a random 127.0.0.1 port, nothing persisted, for tests that take Redis
 * down: never the machine's shared one. `stop()` ends the process (its data goes with it), `start()`
 * runs a fresh one on the same port.
 */
export async function startPrivateRedis(): Promise<PrivateServer> {
  const port = await freePort();
  let child: ChildProcess | undefined;
  // A test process that dies without close() must not leave its Redis behind.
  const killOnExit = () => child?.kill("SIGKILL");

  const start = async () => {
    if (child) return;
    const started = spawn(
      "redis-server",
      ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
      { stdio: ["ignore", "ignore", "pipe"] },
    );
    let stderr = "";
    started.stderr?.on("data", (chunk) => {
      stderr += chunk;
    });
    child = started;
    process.once("exit", killOnExit);
    const deadline = Date.now() + 10_000;
    while (!(await answers(port))) {
      if (started.exitCode !== null || Date.now() > deadline) {
        child = undefined;
        started.kill("SIGKILL");
        throw new Error(`redis-server did not start on ${port}: ${stderr}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  const stop = async () => {
    const running = child;
    if (!running) return;
    child = undefined;
    process.off("exit", killOnExit);
    if (running.exitCode !== null) return;
    const exited = new Promise((resolve) => running.once("exit", resolve));
    running.kill("SIGTERM");
    await exited;
  };
  await start();
  return { url: `redis://127.0.0.1:${port}`, start, stop, close: stop };
}
