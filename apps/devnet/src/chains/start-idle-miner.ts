import { jsonRpcBatch } from "./json-rpc-batch.js";

/**
 * Mines an empty block on each chain every `intervalMs` (anvil's evm_mine), beside automine, so that
 * blocks keep coming on an idle devnet chain and a block becomes final by a confirmation depth within a
 * few intervals. A chain that does not answer is tried again at the next interval. Returns the stop.
 */
export function startIdleMiner(rpcUrls: readonly string[], intervalMs: number): () => Promise<void> {
  let stopped = false;
  let running: Promise<unknown> = Promise.resolve();
  const timer = setInterval(() => {
    running = Promise.allSettled(
      rpcUrls.map((rpcUrl) => jsonRpcBatch(rpcUrl, [{ method: "evm_mine", params: [] }])),
    );
  }, intervalMs);
  timer.unref();
  return async () => {
    if (stopped) return;
    stopped = true;
    clearInterval(timer);
    await running;
  };
}
