// The load generator's own CPU per call, for benchmarks whose client runs in the measured process: the
// same undici pool settings, bodies and concurrency against a node:http server in a child process that
// answers every call with the same recorded bytes. This process then spends only the client's work, so a
// per-call CPU figure can be split into client and server.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { Pool } from "undici";

const SERVER = `
const answer = Buffer.from(process.env.ANSWER ?? "");
const server = require("node:http").createServer((request, response) => {
  request.on("data", () => {});
  request.on("end", () => {
    response.writeHead(200, { "content-type": "application/json", "content-length": answer.length });
    response.end(answer);
  });
});
server.listen(0, "127.0.0.1", () => process.stdout.write(String(server.address().port) + "\\n"));
`;

/**
 * CPU ms of this process per call: `bodies` POSTed to `path` by `concurrency` callers through a pool
 * of `connections`, each answer (`answer`'s bytes) read as text and parsed as the benchmark parses it.
 */
export async function clientCpuMsPerCall(options: {
  bodies: string[];
  path: string;
  headers: Record<string, string>;
  answer: string;
  concurrency: number;
  connections: number;
}): Promise<number> {
  const child = spawn(process.execPath, ["-e", SERVER], {
    env: { ...process.env, ANSWER: options.answer },
    stdio: ["ignore", "pipe", "inherit"],
  });
  try {
    const [line] = (await once(child.stdout, "data")) as [Buffer];
    const pool = new Pool(`http://127.0.0.1:${line.toString().trim()}`, { connections: options.connections });
    const headers = { ...options.headers, "content-type": "application/json" };
    const pass = async (): Promise<number> => {
      let next = 0;
      const before = process.cpuUsage();
      await Promise.all(
        Array.from({ length: options.concurrency }, async () => {
          while (next < options.bodies.length) {
            const body = options.bodies[next++];
            const response = await pool.request({ method: "POST", path: options.path, headers, body });
            const text = await response.body.text();
            if (response.statusCode !== 200 || !text.includes('"success":true')) throw new Error(text);
            JSON.parse(text);
          }
        }),
      );
      const cpu = process.cpuUsage(before);
      return (cpu.user + cpu.system) / 1000 / options.bodies.length;
    };
    await pass(); // warm-up: the same calls, unmeasured
    const measured = await pass();
    await pool.close();
    return measured;
  } finally {
    child.kill();
  }
}
