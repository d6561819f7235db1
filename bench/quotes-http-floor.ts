// The HTTP floor of a quote round: what the round's HTTP exchanges cost this process on bare transports,
// measured beside the floor round (bench/quotes-floor.ts) at the same rounds and concurrency, so the floor
// plus this is what a round cannot go below. Parts:
// - outgoing: the round's four upstream calls (2 providers x 2 lanes) on node:http's client over keep-alive
//   agents, each the hub's request bytes (its encoder, its request body) to the benchmark's own canned
//   providers (their child process, their delays, the recorded answers' bytes), each answer's bytes read;
// - outgoingNet: the same four calls on node:net sockets kept alive, the request's bytes written as they are
//   and the answer framed by its length or chunks alone: about the least an HTTP/1.1 client can do;
// - incoming: one POST /v1/quote with the request's bytes, answered with a quote answer's bytes by a
//   node:http server in this process, from a client in a child process (bench/quotes-http-load.ts). The
//   quotes benchmark calls the hub in process (no gateway, no listener): this part is not in its round.
import { fork } from "node:child_process";
import { type IncomingMessage, Agent, createServer, request as httpRequest } from "node:http";
import { type AddressInfo, connect, type Socket } from "node:net";
import { laneTable, type OifLane } from "../apps/hub/src/lanes/lane-table.js";
import { buildOifQuoteRequest } from "../apps/hub/src/providers/oif-aggregator/build-oif-quote-request.js";
import { oifDialectTables } from "../apps/hub/src/providers/oif-aggregator/oif-dialects.js";
import type { QuoteRoute } from "../apps/hub/src/quotes/resolve-quote-route.js";
import { createRequestEncoder } from "../apps/hub/src/upstream/request-encoder.js";
import { profiled } from "./cpu-profile.js";

export interface HttpFloorInputs {
  route: QuoteRoute;
  /** The canned providers' URLs, as the hub's providers are configured. */
  providerUrls: readonly string[];
  /** The hub's provider timeout, which its request bodies carry. */
  providerTimeoutMs: number;
  /** The POST /v1/quote body's bytes and a quote answer's bytes. */
  payload: Buffer;
  answer: Buffer;
  rounds: number;
  concurrency: number;
  idleCpuMsPerMs: number;
}

/** One upstream call: where it goes, the hub's request bytes, and its head and body for node:http. */
interface FloorCall {
  url: URL;
  bytes: Buffer;
  path: string;
  headers: Record<string, string>;
  body: Buffer;
}

const round3 = (ms: number) => Math.round(ms * 1000) / 1000;

/** Process CPU in ms over `work`, less the idle rate over its wall time, per round. */
async function cpuMsPerRound(rounds: number, idleCpuMsPerMs: number, work: () => Promise<unknown>) {
  const started = performance.now();
  const before = process.cpuUsage();
  await work();
  const used = process.cpuUsage(before);
  return ((used.user + used.system) / 1000 - idleCpuMsPerMs * (performance.now() - started)) / rounds;
}

/** `count` rounds, `concurrency` at a time. */
async function inFlight(count: number, concurrency: number, round: () => Promise<unknown>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        next += 1;
        await round();
      }
    }),
  );
}

/** The round's calls in the hub's order, each with the bytes the hub's encoder writes for it. */
function floorCalls(inputs: HttpFloorInputs): FloorCall[] {
  const path = `${oifDialectTables["oif-aggregator"].pathPrefix}/quotes`;
  return inputs.providerUrls.flatMap((providerUrl) => {
    const url = new URL(providerUrl);
    const encode = createRequestEncoder(url.host, {});
    return (inputs.route.lanes as OifLane[]).map((lane) => {
      const request = buildOifQuoteRequest(inputs.route, lane, {
        providerTimeoutMs: inputs.providerTimeoutMs,
      });
      const bytes = encode("POST", path, request) as Buffer;
      const body = Buffer.from(JSON.stringify(request));
      if (laneTable[lane].oif === undefined) throw new Error(`${lane} is no OIF lane`);
      return {
        url,
        bytes,
        path,
        body,
        headers: {
          accept: "application/json",
          "user-agent": "intent-hub/0.1",
          "content-type": "application/json",
          "content-length": String(body.length),
        },
      };
    });
  });
}

/** The body's bytes of a node:http answer, gathered. */
function bodyOf(response: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    response.on("data", (chunk: Buffer) => chunks.push(chunk));
    response.on("end", () => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)));
    response.on("error", reject);
  });
}

/** The four calls on node:http's client, one keep-alive agent per provider. */
function nodeHttpRound(calls: FloorCall[]) {
  const agents = new Map(
    calls.map((call) => [call.url.host, new Agent({ keepAlive: true, maxSockets: 128 })]),
  );
  const one = (call: FloorCall) =>
    new Promise<Buffer>((resolve, reject) => {
      const outgoing = httpRequest(
        {
          agent: agents.get(call.url.host),
          host: call.url.hostname,
          port: call.url.port,
          method: "POST",
          path: call.path,
          headers: call.headers,
        },
        (response) => {
          if (response.statusCode !== 200) reject(new Error(`provider answered ${response.statusCode}`));
          bodyOf(response).then(resolve, reject);
        },
      );
      outgoing.on("error", reject);
      outgoing.end(call.body);
    });
  return {
    round: () => Promise.all(calls.map(one)),
    close: () => {
      for (const agent of agents.values()) agent.destroy();
    },
  };
}

const HEAD_END = Buffer.from("\r\n\r\n");
const CONTENT_LENGTH = /\r\ncontent-length: *(\d+)/i;
const CRLF = Buffer.from("\r\n");

/** The body of a chunked answer from `start`, or undefined while its last chunk has not arrived. */
function dechunked(read: Buffer, start: number): Buffer | undefined {
  const pieces: Buffer[] = [];
  let at = start;
  for (;;) {
    const lineEnd = read.indexOf(CRLF, at);
    if (lineEnd === -1) return undefined;
    const size = Number.parseInt(read.toString("latin1", at, lineEnd), 16);
    if (size === 0) {
      if (read.length < lineEnd + 4) return undefined;
      return pieces.length === 1 ? pieces[0] : Buffer.concat(pieces);
    }
    if (read.length < lineEnd + 2 + size + 2) return undefined;
    pieces.push(read.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
}

/**
 * The four calls on node:net: a request's bytes written whole, its answer framed by Content-Length or by
 * its chunks (the providers' node:http answers chunked), nothing else read.
 */
function netRound(calls: FloorCall[]) {
  const idle = new Map<string, Socket[]>(calls.map((call) => [call.url.host, []]));
  const all: Socket[] = [];
  const one = (call: FloorCall) =>
    new Promise<Buffer>((resolve, reject) => {
      const free = idle.get(call.url.host)!;
      let socket = free.pop();
      if (socket === undefined) {
        socket = connect(Number(call.url.port), call.url.hostname);
        socket.setNoDelay(true);
        all.push(socket);
      }
      const held = socket;
      let read: Buffer | undefined;
      let bodyStart = -1;
      let length: number | undefined;
      const onData = (chunk: Buffer) => {
        read = read === undefined ? chunk : Buffer.concat([read, chunk]);
        if (bodyStart === -1) {
          const end = read.indexOf(HEAD_END);
          if (end === -1) return;
          const declared = CONTENT_LENGTH.exec(read.toString("latin1", 0, end));
          if (declared !== null) length = Number(declared[1]);
          bodyStart = end + 4;
        }
        let body: Buffer | undefined;
        if (length === undefined) body = dechunked(read, bodyStart);
        else if (read.length >= bodyStart + length) body = read.subarray(bodyStart, bodyStart + length);
        if (body === undefined) return;
        held.off("data", onData);
        held.off("error", reject);
        free.push(held);
        resolve(body);
      };
      held.on("data", onData);
      held.on("error", reject);
      held.write(call.bytes);
    });
  return {
    round: () => Promise.all(calls.map(one)),
    close: () => {
      for (const socket of all) socket.destroy();
    },
  };
}

/** Server CPU per POST: a node:http server here answering `answer`, loaded from a child process. */
async function incomingPostMs(inputs: HttpFloorInputs): Promise<number> {
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      response.writeHead(200, {
        "content-type": "application/json; charset=utf-8",
        "content-length": inputs.answer.length,
      });
      response.end(inputs.answer);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const load = fork(new URL("./quotes-http-load.ts", import.meta.url).pathname, [], {
    execArgv: ["--import", "tsx"],
  });
  const ask = (message: object) =>
    new Promise<void>((resolve) => {
      load.once("message", () => resolve());
      load.send(message);
    });
  try {
    await ask({
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/quote`,
      payload: inputs.payload.toString("latin1"),
      concurrency: inputs.concurrency,
      rounds: inputs.concurrency * 3,
    });
    return await cpuMsPerRound(inputs.rounds, inputs.idleCpuMsPerMs, () => ask({ rounds: inputs.rounds }));
  } finally {
    load.disconnect();
    server.close();
    server.closeAllConnections();
  }
}

/** The HTTP floor's CPU per round by part, and the outgoing parts' answer bytes (the floor round's parse input). */
export async function measureHttpFloor(inputs: HttpFloorInputs) {
  const calls = floorCalls(inputs);
  const { rounds, concurrency, idleCpuMsPerMs: idle } = inputs;
  const measure = async (label: string, way: { round: () => Promise<Buffer[]>; close: () => void }) => {
    try {
      const answers = await way.round();
      // Two rounds per slot first, unmeasured, as the levels open their connections.
      await inFlight(2 * concurrency, concurrency, way.round);
      const ms = await cpuMsPerRound(rounds, idle, () =>
        profiled(label, () => inFlight(rounds, concurrency, way.round)),
      );
      return { ms, answerBytes: answers.reduce((sum, answer) => sum + answer.length, 0) };
    } finally {
      way.close();
    }
  };
  const outgoing = await measure("quotes-http-floor", nodeHttpRound(calls));
  const outgoingNet = await measure("quotes-http-floor-net", netRound(calls));
  const incoming = await incomingPostMs(inputs);
  return {
    what: "CPU per round of the round's HTTP on bare transports: its 4 upstream calls on node:http's keep-alive client (outgoing; outgoingNet: node:net, framed and nothing else) to the benchmark's providers, and one POST /v1/quote into a node:http server (incoming: not in the benchmark's round, which calls the hub in process) (bench/quotes-http-floor.ts)",
    hubCpuMsPerRound: round3(outgoing.ms),
    parts: {
      outgoingMs: round3(outgoing.ms),
      outgoingNetMs: round3(outgoingNet.ms),
      incomingPostMs: round3(incoming),
    },
    upstreamCalls: calls.length,
    requestBytes: calls.reduce((sum, call) => sum + call.bytes.length, 0),
    upstreamAnswerBytes: outgoing.answerBytes,
    answerBytes: inputs.answer.length,
  };
}
