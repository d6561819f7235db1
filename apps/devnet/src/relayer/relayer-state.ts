import { bridgeAbi, type DevnetManifest } from "@hub/chain";
import type { Logger } from "pino";
import { getAbiItem } from "viem";
import type { ChainClients } from "../create-chain-clients.js";
import { createLogCursor, type LogCursor } from "../create-log-cursor.js";
import type { RelayedDeposit } from "./relayed-deposit.js";

export const depositedEvent = getAbiItem({ abi: bridgeAbi, name: "Deposited" });

/** What the relayer's modules share: the deposits seen, a log cursor per bridge, and whether it is paused. */
export interface RelayerState {
  readonly manifest: DevnetManifest;
  readonly feeBps: number;
  readonly clients: ChainClients;
  readonly log: Logger;
  readonly deposits: Map<`0x${string}`, RelayedDeposit>;
  readonly cursors: Map<number, LogCursor<typeof depositedEvent>>;
  paused: boolean;
}

export function createRelayerState(
  config: { manifest: DevnetManifest; feeBps: number; paused?: boolean },
  deps: { clients: ChainClients; logger: Logger },
): RelayerState {
  const { manifest } = config;
  const { clients, logger } = deps;
  const log = logger.child({ service: "relayer" });
  const cursors = new Map<number, LogCursor<typeof depositedEvent>>();
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
  return {
    manifest,
    feeBps: config.feeBps,
    clients,
    log,
    deposits: new Map(),
    cursors,
    paused: config.paused ?? false,
  };
}
