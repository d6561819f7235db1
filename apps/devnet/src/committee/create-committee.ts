import {
  type Attestation,
  attestationForOutputFilled,
  committeeOracleAbi,
  type DevnetManifest,
  inputSettlerEscrowAbi,
  type MandateOutput,
  outputSettlerAbi,
  signAttestation,
  submitAttestation,
} from "@hub/chain";
import type { Clock } from "@hub/clock";
import type { Logger } from "pino";
import { getAbiItem } from "viem";
import type { ChainClients } from "../create-chain-clients.js";
import { createLogCursor, type LogCursor } from "../create-log-cursor.js";
import { createPollLoop } from "../create-poll-loop.js";
import type { SolanaChain } from "../solana/solana-chain.js";
import { createSolanaFillReader } from "./solana-fills.js";
import type { SolanaRelease } from "./solana-release.js";

const outputFilledEvent = getAbiItem({ abi: outputSettlerAbi, name: "OutputFilled" });

/** `rejected`: a Solana-escrow fill that does not match its order, or whose order was already settled. */
export type AttestationState = "waiting" | "proven" | "rejected";

/** A fill the committee saw on an output settler, and the attestation it owes the origin chain. */
export interface ObservedFill {
  /** An EVM chain id; for a fill on Solana, the chain's OIF chain id as a decimal string. */
  fillChainId: number | string;
  orderId: `0x${string}`;
  solver: `0x${string}`;
  fillTimestamp: number;
  /** A transaction hash; for a fill on Solana, its signature. */
  fillTxHash: string;
  remoteOracle: `0x${string}`;
  application: `0x${string}`;
  payloadHash: `0x${string}`;
  observedAt: string;
  state: AttestationState;
  /** Known once the order's Open is found on a chain's escrow. */
  originChainId?: number;
  attestationTxHash?: `0x${string}`;
  /** Set for an order whose input the Solana escrow holds: that chain's domain and the release's signature. */
  originChainDomain?: string;
  releaseSignature?: string;
  /** The last submission failure, while the fill is still waiting (or why it was rejected). */
  lastError?: string;
}

export interface CommitteeConfig {
  manifest: DevnetManifest;
  /** Time between seeing a fill and attesting it; changeable at run time. */
  delayMs: number;
  pollIntervalMs?: number;
}

export interface CommitteeDeps {
  clients: ChainClients;
  clock: Clock;
  logger: Logger;
  /** The Solana stand-in (the manifest's `solana`): fills of EVM orders paid there are read from it. */
  solana?: SolanaChain;
  /** Releases the Solana escrow's deposits of Solana → EVM orders once their fills are seen. */
  solanaRelease?: SolanaRelease;
}

export interface Committee {
  start(): void;
  stop(): Promise<void>;
  delayMs(): number;
  /** Applies to fills still waiting as well: each is attested `delayMs` after it was seen. */
  setDelayMs(delayMs: number): void;
  fills(): ObservedFill[];
}

interface TrackedFill extends ObservedFill {
  observedAtMs: number;
  attestation: Attestation;
  /** The output an EVM OutputFilled names (a Solana → EVM release checks it); absent for fills on Solana. */
  output?: MandateOutput;
}

/**
 * The devnet attestation committee: watches OutputFilled on every chain's output settler and, once a
 * fill has been known for `delayMs`, has every member sign the attestation and submits `threshold`
 * signatures to the committee oracle of the chain where the order was opened. It rescans from the
 * deploy block when restarted and skips attestations the oracle already holds.
 */
export function createCommittee(config: CommitteeConfig, deps: CommitteeDeps): Committee {
  const { manifest } = config;
  const { clients, clock, logger } = deps;
  const log = logger.child({ service: "committee" });
  const fills = new Map<string, TrackedFill>();
  const cursors = new Map<number, LogCursor<typeof outputFilledEvent>>();
  let delayMs = config.delayMs;
  const solanaFills =
    deps.solana && manifest.solana
      ? createSolanaFillReader({ manifest, clients, chain: deps.solana })
      : undefined;
  const submitter = manifest.committee.members[0];
  if (!submitter) throw new Error("the committee has no members");

  for (const chain of manifest.chains) {
    cursors.set(
      chain.chainId,
      createLogCursor({
        client: clients.get(chain.chainId).publicClient,
        address: chain.contracts.outputSettler,
        event: outputFilledEvent,
        fromBlock: BigInt(chain.deployBlock),
      }),
    );
  }

  async function readFills(): Promise<void> {
    for (const [chainId, cursor] of cursors) {
      for (const event of await cursor.next()) {
        const key = `${chainId}:${event.transactionHash}:${event.logIndex}`;
        if (fills.has(key)) continue;
        const { orderId, solver, timestamp } = event.args;
        let attestation: Attestation;
        try {
          attestation = attestationForOutputFilled(event);
        } catch (error) {
          log.warn({ err: error, orderId, chainId }, "fill not attestable");
          continue;
        }
        const nowMs = clock.now();
        fills.set(key, {
          fillChainId: chainId,
          orderId,
          solver,
          fillTimestamp: Number(timestamp),
          fillTxHash: event.transactionHash,
          remoteOracle: attestation.remoteOracle,
          application: attestation.application,
          payloadHash: attestation.payloadHash,
          attestation,
          output: event.args.output,
          observedAt: new Date(nowMs).toISOString(),
          observedAtMs: nowMs,
          state: "waiting",
        });
        log.debug({ orderId, chainId }, "fill observed");
      }
    }
    for (const fill of (await solanaFills?.next()) ?? []) {
      const key = `solana:${fill.signature}`;
      if (fills.has(key)) continue;
      const nowMs = clock.now();
      fills.set(key, {
        fillChainId: fill.attestation.remoteChainId.toString(),
        orderId: fill.orderId,
        solver: fill.solver,
        fillTimestamp: fill.fillTimestamp,
        fillTxHash: fill.signature,
        remoteOracle: fill.attestation.remoteOracle,
        application: fill.attestation.application,
        payloadHash: fill.attestation.payloadHash,
        attestation: fill.attestation,
        originChainId: fill.originChainId,
        observedAt: new Date(nowMs).toISOString(),
        observedAtMs: nowMs,
        state: "waiting",
      });
      log.debug({ orderId: fill.orderId, signature: fill.signature }, "solana fill observed");
    }
  }

  async function findOrigin(orderId: `0x${string}`): Promise<number | undefined> {
    for (const client of clients.all()) {
      const status = await client.publicClient.readContract({
        address: client.chain.contracts.inputSettlerEscrow,
        abi: inputSettlerEscrowAbi,
        functionName: "orderStatus",
        args: [orderId],
      });
      if (Number(status) !== 0) return client.chain.chainId;
    }
    return undefined;
  }

  // Answers `rejected` when the fill is refused for good (its lastError says why).
  async function attest(fill: TrackedFill): Promise<"rejected" | undefined> {
    fill.originChainId ??= await findOrigin(fill.orderId);
    if (fill.originChainId === undefined && deps.solanaRelease?.knows(fill.orderId))
      return releaseOnSolana(fill, deps.solanaRelease);
    // A fill seen before its Open (or of an order never opened here) waits until the Open appears.
    if (fill.originChainId === undefined) return;
    const origin = clients.get(fill.originChainId);
    const oracle = origin.chain.contracts.committeeOracle;
    const { attestation } = fill;
    const proven = await origin.publicClient.readContract({
      address: oracle,
      abi: committeeOracleAbi,
      functionName: "isProven",
      args: [
        attestation.remoteChainId,
        attestation.remoteOracle,
        attestation.application,
        attestation.payloadHash,
      ],
    });
    if (!proven) {
      const signatures = await Promise.all(
        manifest.committee.members.map((member) =>
          signAttestation({
            privateKey: member.privateKey,
            chainId: origin.chain.chainId,
            oracle,
            attestation,
          }),
        ),
      );
      const hash = await submitAttestation(origin.wallet(submitter!), {
        oracle,
        attestation,
        signatures: signatures.slice(0, manifest.committee.threshold),
      });
      const receipt = await origin.publicClient.waitForTransactionReceipt({ hash, pollingInterval: 50 });
      if (receipt.status !== "success") throw new Error(`attestation of ${fill.orderId} reverted in ${hash}`);
      fill.attestationTxHash = hash;
      log.info({ orderId: fill.orderId, originChainId: fill.originChainId, hash }, "fill attested");
    }
    fill.state = "proven";
  }

  // No EVM escrow opened the order and the Solana escrow holds it: the release is the settlement.
  async function releaseOnSolana(fill: TrackedFill, solana: SolanaRelease): Promise<"rejected" | undefined> {
    const { fillChainId, output } = fill;
    // Only an EVM fill (a chain id and the output it named) can release a Solana deposit.
    if (typeof fillChainId !== "number" || output === undefined) return undefined;
    const outcome = await solana.release({
      fillChainId,
      orderId: fill.orderId,
      solver: fill.solver,
      output,
      fillTxHash: fill.fillTxHash as `0x${string}`,
    });
    fill.originChainDomain = solana.chainDomain;
    if (outcome.state === "rejected") {
      fill.state = "rejected";
      fill.lastError = outcome.reason;
      log.warn({ orderId: fill.orderId, reason: outcome.reason }, "solana escrow fill rejected");
      return "rejected";
    }
    fill.releaseSignature = outcome.signature;
    fill.state = "proven";
    log.info({ orderId: fill.orderId, signature: outcome.signature }, "solana escrow released");
    return undefined;
  }

  const loop = createPollLoop(
    { name: "committee", intervalMs: config.pollIntervalMs ?? 100, logger: log },
    async () => {
      await readFills();
      for (const fill of fills.values()) {
        if (fill.state !== "waiting" || clock.now() < fill.observedAtMs + delayMs) continue;
        try {
          if ((await attest(fill)) !== "rejected") delete fill.lastError;
        } catch (error) {
          const reason = error instanceof Error ? error.message : String(error);
          // Retried every tick; logged once per distinct failure.
          if (reason !== fill.lastError)
            log.warn({ err: error, orderId: fill.orderId }, "attestation failed; retrying");
          fill.lastError = reason;
        }
      }
    },
  );

  return {
    start: () => loop.start(),
    stop: () => loop.stop(),
    delayMs: () => delayMs,
    setDelayMs(next) {
      if (!Number.isInteger(next) || next < 0) throw new Error(`bad committee delay ${next}`);
      delayMs = next;
      loop.wake();
    },
    fills: () =>
      [...fills.values()].map(({ observedAtMs: _ms, attestation: _a, output: _o, ...fill }) => ({ ...fill })),
  };
}
