import {
  bridgeAbi,
  inputSettlerEscrowAbi,
  mandateOutputToJson,
  outputSettlerAbi,
  standardOrderToJson,
} from "@hub/chain";
import { type AbiEvent, type Address, createPublicClient, http, type Log, parseEventLogs } from "viem";
import type { ChainReader, LogPosition, OrderLog, OrderLogQuery } from "./chain-reader.js";

const escrowEvents = inputSettlerEscrowAbi.filter(
  (item): item is Extract<(typeof inputSettlerEscrowAbi)[number], { type: "event" }> =>
    item.type === "event" && (item.name === "Open" || item.name === "Refunded" || item.name === "Finalised"),
);
const outputEvents = outputSettlerAbi.filter(
  (item): item is Extract<(typeof outputSettlerAbi)[number], { type: "event" }> =>
    item.type === "event" && item.name === "OutputFilled",
);
const bridgeEvents = bridgeAbi.filter(
  (item): item is Extract<(typeof bridgeAbi)[number], { type: "event" }> =>
    item.type === "event" && (item.name === "Deposited" || item.name === "Released"),
);

function position(log: Log): LogPosition {
  if (
    log.blockNumber === null ||
    log.blockHash === null ||
    log.transactionHash === null ||
    log.logIndex === null
  ) {
    throw new Error("a pending log has no position");
  }
  return {
    blockNumber: Number(log.blockNumber),
    blockHash: log.blockHash.toLowerCase(),
    txHash: log.transactionHash.toLowerCase(),
    logIndex: log.logIndex,
  };
}

function byLogOrder(a: OrderLog, b: OrderLog): number {
  return a.blockNumber - b.blockNumber || a.logIndex - b.logIndex;
}

/** A ChainReader over EVM JSON-RPC: one eth_getLogs per range for the settler and bridge events. */
export function createEvmChainReader(config: { rpcUrl: string; requestTimeoutMs?: number }): ChainReader {
  const client = createPublicClient({
    transport: http(config.rpcUrl, { timeout: config.requestTimeoutMs ?? 10_000, retryCount: 0 }),
  });
  return {
    chainId: () => client.getChainId(),
    async headBlockNumber() {
      return Number(await client.getBlockNumber({ cacheTime: 0 }));
    },
    async block(number) {
      const block = await client.getBlock({ blockNumber: BigInt(number) });
      if (block.hash === null) throw new Error(`block ${number} is pending`);
      return { number, hash: block.hash.toLowerCase(), timestamp: Number(block.timestamp) };
    },
    async orderLogs(query: OrderLogQuery) {
      const inputSettlers = new Set(query.inputSettlers.map((a) => a.toLowerCase()));
      const outputSettler = query.outputSettler.toLowerCase();
      const bridges = new Set((query.bridges ?? []).map((a) => a.toLowerCase()));
      const logs = await client.getLogs({
        address: [...inputSettlers, outputSettler, ...bridges] as Address[],
        events: [...escrowEvents, ...outputEvents, ...bridgeEvents] as AbiEvent[],
        fromBlock: BigInt(query.fromBlock),
        toBlock: BigInt(query.toBlock),
      });
      const fromEscrow = logs.filter((log) => inputSettlers.has(log.address.toLowerCase()));
      const fromOutput = logs.filter((log) => log.address.toLowerCase() === outputSettler);
      const fromBridges = logs.filter((log) => bridges.has(log.address.toLowerCase()));
      const decoded: OrderLog[] = [];
      for (const log of parseEventLogs({ abi: inputSettlerEscrowAbi, logs: fromEscrow, strict: true })) {
        const settler = log.address.toLowerCase();
        const onchainOrderId = log.args.orderId.toLowerCase();
        if (log.eventName === "Open") {
          decoded.push({
            ...position(log),
            kind: "open",
            settler,
            onchainOrderId,
            order: standardOrderToJson(log.args.order),
          });
        } else if (log.eventName === "Finalised") {
          decoded.push({
            ...position(log),
            kind: "finalised",
            settler,
            onchainOrderId,
            solver: log.args.solver.toLowerCase(),
            destination: log.args.destination.toLowerCase(),
          });
        } else if (log.eventName === "Refunded") {
          decoded.push({ ...position(log), kind: "refunded", settler, onchainOrderId });
        }
      }
      for (const log of parseEventLogs({ abi: outputSettlerAbi, logs: fromOutput, strict: true })) {
        if (log.eventName !== "OutputFilled") continue;
        decoded.push({
          ...position(log),
          kind: "output-filled",
          settler: log.address.toLowerCase(),
          onchainOrderId: log.args.orderId.toLowerCase(),
          solver: log.args.solver.toLowerCase(),
          timestamp: log.args.timestamp,
          output: mandateOutputToJson(log.args.output),
          finalAmount: log.args.finalAmount.toString(),
        });
      }
      for (const log of parseEventLogs({ abi: bridgeAbi, logs: fromBridges, strict: true })) {
        const bridge = log.address.toLowerCase();
        if (log.eventName === "Deposited") {
          decoded.push({
            ...position(log),
            kind: "bridge-deposited",
            bridge,
            depositId: log.args.depositId.toLowerCase(),
            depositor: log.args.depositor.toLowerCase(),
            token: log.args.token.toLowerCase(),
            amount: log.args.amount.toString(),
            destinationChainId: log.args.destinationChainId.toString(),
            recipient: log.args.recipient.toLowerCase(),
            ref: log.args.ref.toLowerCase(),
          });
        } else if (log.eventName === "Released") {
          decoded.push({
            ...position(log),
            kind: "bridge-released",
            bridge,
            depositId: log.args.depositId.toLowerCase(),
            token: log.args.token.toLowerCase(),
            recipient: log.args.recipient.toLowerCase(),
            amount: log.args.amount.toString(),
          });
        }
      }
      if (decoded.length !== logs.length) {
        throw new Error(
          `${logs.length - decoded.length} settler or bridge logs in ${query.fromBlock}..${query.toBlock} did not decode`,
        );
      }
      return decoded.sort(byLogOrder);
    },
  };
}
