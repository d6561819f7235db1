import {
  bridgeAbi,
  inputSettlerEscrowAbi,
  mandateOutputToJson,
  outputSettlerAbi,
  standardOrderToJson,
} from "@hub/chain";
import { type AbiEvent, type Log, parseEventLogs, toEventSelector } from "viem";
import type { LogPosition, OrderLog, OrderLogQuery } from "./chain-reader.js";

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

/** The topic0 of every event the reader asks eth_getLogs for: the settlers' and the bridges'. */
export const orderEventTopics = ([...escrowEvents, ...outputEvents, ...bridgeEvents] as AbiEvent[]).map(
  (event) => toEventSelector(event),
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

/** Open, Finalised and Refunded of the input settlers. */
function escrowLogs(logs: Log[]): OrderLog[] {
  const decoded: OrderLog[] = [];
  for (const log of parseEventLogs({ abi: inputSettlerEscrowAbi, logs, strict: true })) {
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
  return decoded;
}

/** OutputFilled of the output settler. */
function outputLogs(logs: Log[]): OrderLog[] {
  const decoded: OrderLog[] = [];
  for (const log of parseEventLogs({ abi: outputSettlerAbi, logs, strict: true })) {
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
  return decoded;
}

/** Deposited and Released of the open-flow bridges. */
function bridgeLogs(logs: Log[]): OrderLog[] {
  const decoded: OrderLog[] = [];
  for (const log of parseEventLogs({ abi: bridgeAbi, logs, strict: true })) {
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
  return decoded;
}

/** Fetches the logs of the query's settlers and bridges and decodes every one of them, in log order. */
export async function readOrderLogs(
  query: Omit<OrderLogQuery, "fromBlock" | "toBlock">,
  fetchLogs: (addresses: string[]) => Promise<Log[]>,
  label: string,
): Promise<OrderLog[]> {
  const inputSettlers = new Set(query.inputSettlers.map((a) => a.toLowerCase()));
  const outputSettler = query.outputSettler.toLowerCase();
  const bridges = new Set((query.bridges ?? []).map((a) => a.toLowerCase()));
  const logs = (await fetchLogs([...inputSettlers, outputSettler, ...bridges])).filter(
    (log) => log.removed !== true,
  );
  const decoded = [
    ...escrowLogs(logs.filter((log) => inputSettlers.has(log.address.toLowerCase()))),
    ...outputLogs(logs.filter((log) => log.address.toLowerCase() === outputSettler)),
    ...bridgeLogs(logs.filter((log) => bridges.has(log.address.toLowerCase()))),
  ];
  if (decoded.length !== logs.length) {
    throw new Error(`${logs.length - decoded.length} settler or bridge logs in ${label} did not decode`);
  }
  return decoded.sort(byLogOrder);
}
