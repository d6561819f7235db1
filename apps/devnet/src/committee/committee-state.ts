import { type DevnetManifest, outputSettlerAbi } from "@hub/chain";
import type { Clock } from "@hub/clock";
import type { Logger } from "pino";
import { getAbiItem } from "viem";
import type { ChainClients } from "../create-chain-clients.js";
import { createLogCursor, type LogCursor } from "../create-log-cursor.js";
import type { SolanaChain } from "../solana/solana-chain.js";
import type { TrackedFill } from "./observed-fill.js";
import { createSolanaFillReader, type SolanaFillReader } from "./solana-fills.js";
import type { SolanaRelease } from "./solana-release.js";

export const outputFilledEvent = getAbiItem({ abi: outputSettlerAbi, name: "OutputFilled" });

/** What the committee's modules share: the fills it saw, a log cursor per chain and the current delay. */
export interface CommitteeState {
  readonly manifest: DevnetManifest;
  readonly clients: ChainClients;
  readonly clock: Clock;
  readonly log: Logger;
  readonly fills: Map<string, TrackedFill>;
  readonly cursors: Map<number, LogCursor<typeof outputFilledEvent>>;
  readonly solanaFills: SolanaFillReader | undefined;
  readonly solanaRelease: SolanaRelease | undefined;
  /** The member whose wallet submits the attestations. */
  readonly submitter: DevnetManifest["committee"]["members"][number];
  delayMs: number;
}

export function createCommitteeState(
  config: { manifest: DevnetManifest; delayMs: number },
  deps: {
    clients: ChainClients;
    clock: Clock;
    logger: Logger;
    solana?: SolanaChain;
    solanaRelease?: SolanaRelease;
  },
): CommitteeState {
  const { manifest } = config;
  const { clients, clock, logger } = deps;
  const log = logger.child({ service: "committee" });
  const fills = new Map<string, TrackedFill>();
  const cursors = new Map<number, LogCursor<typeof outputFilledEvent>>();
  const solanaFills =
    deps.solana && manifest.solana
      ? createSolanaFillReader({ manifest, clients, chain: deps.solana })
      : undefined;
  const [firstMember] = manifest.committee.members;
  if (!firstMember) throw new Error("the committee has no members");
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
  return {
    manifest,
    clients,
    clock,
    log,
    fills,
    cursors,
    solanaFills,
    solanaRelease: deps.solanaRelease,
    submitter: firstMember,
    delayMs: config.delayMs,
  };
}
