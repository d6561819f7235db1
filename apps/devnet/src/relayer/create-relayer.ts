import { bridgeAbi, type DevnetManifest } from "@hub/chain";
import type { Logger } from "pino";
import { getAbiItem, zeroAddress } from "viem";
import { bridgeOutputAmount } from "../bridge-output-amount.js";
import type { ChainClients } from "../create-chain-clients.js";
import { createLogCursor, type LogCursor } from "../create-log-cursor.js";
import { createPollLoop } from "../create-poll-loop.js";
import { destinationToken } from "./destination-token.js";

const depositedEvent = getAbiItem({ abi: bridgeAbi, name: "Deposited" });

export type RelayedDepositState = "pending" | "released" | "unroutable";

/** One deposit the relayer saw, and what became of it. */
export interface RelayedDeposit {
  depositId: `0x${string}`;
  ref: `0x${string}`;
  sourceChainId: number;
  destinationChainId: number;
  depositor: `0x${string}`;
  sourceToken: `0x${string}`;
  destinationToken?: `0x${string}`;
  amount: string;
  releaseAmount: string;
  recipient: `0x${string}`;
  depositTxHash: `0x${string}`;
  state: RelayedDepositState;
  releaseTxHash?: `0x${string}`;
  /** Why the deposit is unroutable, or the last release failure while it is pending. */
  reason?: string;
}

export interface RelayerConfig {
  manifest: DevnetManifest;
  /** Bridge fee in basis points taken from each deposit; the external aggregator quotes with the same. */
  feeBps: number;
  pollIntervalMs?: number;
  paused?: boolean;
}

export interface RelayerDeps {
  clients: ChainClients;
  logger: Logger;
}

export interface Relayer {
  start(): void;
  stop(): Promise<void>;
  pause(): void;
  resume(): void;
  isPaused(): boolean;
  deposits(): RelayedDeposit[];
  /** The deposit made with this `ref` (the external aggregator sets it from the quote id). */
  findByRef(ref: `0x${string}`): RelayedDeposit | undefined;
}

/**
 * The open-flow lane's relayer: reads Deposited on every chain's bridge and calls release on the
 * destination chain's bridge with the relayer key, once per deposit. On a restart it rescans from the
 * deploy block and skips deposits the destination already released.
 */
export function createRelayer(config: RelayerConfig, deps: RelayerDeps): Relayer {
  const { manifest } = config;
  const { clients, logger } = deps;
  const log = logger.child({ service: "relayer" });
  const deposits = new Map<`0x${string}`, RelayedDeposit>();
  const cursors = new Map<number, LogCursor<typeof depositedEvent>>();
  let paused = config.paused ?? false;

  for (const chain of manifest.chains) {
    cursors.set(
      chain.chainId,
      createLogCursor({
        client: clients.get(chain.chainId).publicClient,
        address: chain.contracts.bridge,
        event: depositedEvent,
        fromBlock: BigInt(chain.deployBlock),
      }),
    );
  }

  async function readDeposits(): Promise<void> {
    for (const [chainId, cursor] of cursors) {
      for (const event of await cursor.next()) {
        const { depositId, depositor, token, amount, destinationChainId, recipient, ref } = event.args;
        if (deposits.has(depositId)) continue;
        const destination = clients.find(Number(destinationChainId));
        const mapped = destination
          ? destinationToken(manifest, chainId, token, destination.chain.chainId)
          : undefined;
        const entry: RelayedDeposit = {
          depositId,
          ref,
          sourceChainId: chainId,
          destinationChainId: Number(destinationChainId),
          depositor,
          sourceToken: token,
          amount: amount.toString(),
          releaseAmount: bridgeOutputAmount(amount, config.feeBps).toString(),
          recipient,
          depositTxHash: event.transactionHash,
          state: "pending",
        };
        if (!destination) {
          entry.state = "unroutable";
          entry.reason = `destination chain ${destinationChainId} is not a devnet chain`;
        } else if (mapped === undefined) {
          entry.state = "unroutable";
          entry.reason = `token ${token} has no counterpart on chain ${destinationChainId}`;
        } else {
          entry.destinationToken = mapped;
        }
        if (entry.state === "unroutable")
          log.warn({ depositId, reason: entry.reason }, "deposit cannot be released");
        deposits.set(depositId, entry);
      }
    }
  }

  async function release(entry: RelayedDeposit): Promise<void> {
    const destination = clients.get(entry.destinationChainId);
    const bridge = destination.chain.contracts.bridge;
    const already = await destination.publicClient.readContract({
      address: bridge,
      abi: bridgeAbi,
      functionName: "released",
      args: [entry.depositId],
    });
    if (already) {
      entry.state = "released";
      return;
    }
    const hash = await destination.wallet(manifest.relayer).writeContract({
      address: bridge,
      abi: bridgeAbi,
      functionName: "release",
      args: [
        entry.depositId,
        entry.destinationToken ?? zeroAddress,
        entry.recipient,
        BigInt(entry.releaseAmount),
      ],
    });
    const receipt = await destination.publicClient.waitForTransactionReceipt({ hash, pollingInterval: 50 });
    if (receipt.status !== "success") throw new Error(`release of ${entry.depositId} reverted in ${hash}`);
    entry.state = "released";
    entry.releaseTxHash = hash;
    log.info({ depositId: entry.depositId, releaseTxHash: hash }, "deposit released");
  }

  const loop = createPollLoop(
    { name: "relayer", intervalMs: config.pollIntervalMs ?? 100, logger: log },
    async () => {
      await readDeposits();
      for (const entry of deposits.values()) {
        if (paused) return;
        if (entry.state !== "pending") continue;
        try {
          await release(entry);
          delete entry.reason;
        } catch (error) {
          const reason = error instanceof Error ? error.message : String(error);
          // Retried every tick (liquidity may come back); logged once per distinct failure.
          if (reason !== entry.reason)
            log.warn({ err: error, depositId: entry.depositId }, "release failed; retrying");
          entry.reason = reason;
        }
      }
    },
  );

  return {
    start: () => loop.start(),
    stop: () => loop.stop(),
    pause() {
      paused = true;
    },
    resume() {
      paused = false;
      loop.wake();
    },
    isPaused: () => paused,
    deposits: () => [...deposits.values()].map((entry) => ({ ...entry })),
    findByRef(ref) {
      const wanted = ref.toLowerCase();
      for (const entry of deposits.values()) if (entry.ref.toLowerCase() === wanted) return { ...entry };
      return undefined;
    },
  };
}
