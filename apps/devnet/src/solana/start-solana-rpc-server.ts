import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { Logger } from "pino";
import { callSolanaRpcMethod, type SolanaRpcDeps } from "./solana-rpc-methods.js";
import { SolanaRpcError, solanaRpcErrorCodes } from "./solana-rpc-error.js";

export interface SolanaRpcServer {
  url: string;
  stop(): Promise<void>;
}

const bodyLimitBytes = 1024 * 1024;
const batchLimit = 100;
// u64 values (lamports, rent epochs) are written as JSON integers, exactly, as a node writes them.
const bigintMark = `bigint:${randomBytes(6).toString("hex")}:`;
const bigintPattern = new RegExp(`"${bigintMark}(\\d+)"`, "g");

function stringify(value: unknown): string {
  return JSON.stringify(value, (_key, item) =>
    typeof item === "bigint" ? `${bigintMark}${item}` : item,
  ).replace(bigintPattern, "$1");
}

function errorBody(id: unknown, error: SolanaRpcError) {
  return {
    jsonrpc: "2.0",
    error: {
      code: error.code,
      message: error.message,
      ...(error.data !== undefined ? { data: error.data } : {}),
    },
    id,
  };
}

function answer(request: unknown, deps: SolanaRpcDeps, logger: Logger) {
  const id =
    request &&
    typeof request === "object" &&
    "id" in request &&
    (typeof request.id === "number" || typeof request.id === "string")
      ? request.id
      : null;
  if (
    !request ||
    typeof request !== "object" ||
    (request as { jsonrpc?: unknown }).jsonrpc !== "2.0" ||
    typeof (request as { method?: unknown }).method !== "string"
  )
    return errorBody(id, new SolanaRpcError(solanaRpcErrorCodes.invalidRequest, "Invalid request"));
  const { method, params } = request as { method: string; params?: unknown };
  try {
    return { jsonrpc: "2.0", result: callSolanaRpcMethod(method, params, deps), id };
  } catch (error) {
    if (error instanceof SolanaRpcError) return errorBody(id, error);
    logger.error({ err: error, method }, "solana rpc method failed");
    return errorBody(id, new SolanaRpcError(solanaRpcErrorCodes.internalError, "Internal error"));
  }
}

async function readBody(request: IncomingMessage): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > bodyLimitBytes) return undefined;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString("utf8");
}

function send(response: ServerResponse, status: number, body: string, type = "application/json"): void {
  response.writeHead(status, { "content-type": type, "content-length": Buffer.byteLength(body) });
  response.end(body);
}

/** The Solana JSON-RPC 2.0 endpoint of the stand-in chain on 127.0.0.1 (POST /; GET /health answers "ok"). */
export async function startSolanaRpcServer(
  config: { port: number },
  deps: SolanaRpcDeps & { logger: Logger },
): Promise<SolanaRpcServer> {
  const server = createServer((request, response) => {
    if (request.method === "GET" && request.url === "/health") return send(response, 200, "ok", "text/plain");
    if (request.method !== "POST")
      return send(
        response,
        405,
        "Used HTTP Method is not allowed. POST or OPTIONS is required",
        "text/plain",
      );
    void readBody(request)
      .then((text) => {
        if (text === undefined) return send(response, 413, "", "text/plain");
        let parsed: unknown;
        try {
          parsed = JSON.parse(text);
        } catch {
          return send(
            response,
            200,
            stringify(errorBody(null, new SolanaRpcError(solanaRpcErrorCodes.parseError, "Parse error"))),
          );
        }
        if (Array.isArray(parsed)) {
          if (parsed.length === 0 || parsed.length > batchLimit)
            return send(
              response,
              200,
              stringify(
                errorBody(null, new SolanaRpcError(solanaRpcErrorCodes.invalidRequest, "Invalid request")),
              ),
            );
          return send(response, 200, stringify(parsed.map((item) => answer(item, deps, deps.logger))));
        }
        send(response, 200, stringify(answer(parsed, deps, deps.logger)));
      })
      // The client dropped the request mid-body ("aborted"): no one is left to answer.
      .catch(() => response.destroy());
  });
  server.keepAliveTimeout = 5000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(config.port, "127.0.0.1", () => resolve());
  });
  const address = server.address();
  if (address === null || typeof address === "string")
    throw new Error("solana rpc server has no TCP address");
  return {
    url: `http://127.0.0.1:${address.port}`,
    stop: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
