import { type Address, createPublicClient, getAbiItem, type Hex, http } from "viem";
import { inputSettlerEscrowAbi, outputSettlerAbi } from "./abis.js";
import {
  type ChainFactLocation,
  type ChainOrderFact,
  mandateOutputToJson,
  standardOrderToJson,
} from "./chain-order-facts.js";

export interface EvmChainReaderConfig {
  chainDomain: string;
  chainId: number;
  rpcUrl: string;
  /** Input settlers whose Open, Finalised and Refunded logs are facts. */
  escrows: readonly Address[];
  /** Output settlers whose OutputFilled logs are facts. */
  outputSettlers: readonly Address[];
  /** Blocks behind the newest that head() reports; 0 on the devnet. */
  confirmations?: number;
  timeoutMs?: number;
}

export interface BlockRef {
  number: number;
  hash: Hex;
  timestamp: number;
}

export type EscrowOrderStatus = "None" | "Deposited" | "Claimed" | "Refunded";

/** Reads one EVM chain for the hub: order facts from the escrows and output settlers, and order status. */
export interface EvmChainReader {
  readonly chainDomain: string;
  readonly chainId: number;
  /** The newest block less `confirmations`. */
  head(): Promise<BlockRef>;
  block(number: number): Promise<BlockRef | null>;
  /** Every Open, OutputFilled, Finalised and Refunded log in [fromBlock, toBlock], in chain order. */
  readOrderFacts(range: { fromBlock: number; toBlock: number }): Promise<ChainOrderFact[]>;
  orderStatus(escrow: Address, orderId: Hex): Promise<EscrowOrderStatus>;
}

const escrowStatuses: EscrowOrderStatus[] = ["None", "Deposited", "Claimed", "Refunded"];

export function createEvmChainReader(config: EvmChainReaderConfig): EvmChainReader {
  const client = createPublicClient({
    transport: http(config.rpcUrl, { batch: true, timeout: config.timeoutMs ?? 10_000, retryCount: 0 }),
  });
  const escrows = new Set(config.escrows.map((a) => a.toLowerCase()));
  const outputSettlers = new Set(config.outputSettlers.map((a) => a.toLowerCase()));
  const events = [
    getAbiItem({ abi: inputSettlerEscrowAbi, name: "Open" }),
    getAbiItem({ abi: inputSettlerEscrowAbi, name: "Finalised" }),
    getAbiItem({ abi: inputSettlerEscrowAbi, name: "Refunded" }),
    getAbiItem({ abi: outputSettlerAbi, name: "OutputFilled" }),
  ];

  async function block(number: number): Promise<BlockRef | null> {
    const found = await client.getBlock({ blockNumber: BigInt(number) }).catch((error: unknown) => {
      if (error instanceof Error && error.name === "BlockNotFoundError") return null;
      throw error;
    });
    if (!found || found.hash === null) return null;
    return { number, hash: found.hash, timestamp: Number(found.timestamp) };
  }

  return {
    chainDomain: config.chainDomain,
    chainId: config.chainId,
    async head() {
      const latest = Number(await client.getBlockNumber({ cacheTime: 0 }));
      const number = Math.max(0, latest - (config.confirmations ?? 0));
      const found = await block(number);
      if (!found) throw new Error(`${config.chainDomain}: block ${number} not found`);
      return found;
    },
    block,
    async readOrderFacts({ fromBlock, toBlock }) {
      if (toBlock < fromBlock) return [];
      const logs = await client.getLogs({
        address: [...config.escrows, ...config.outputSettlers],
        events,
        fromBlock: BigInt(fromBlock),
        toBlock: BigInt(toBlock),
        strict: true,
      });
      const blockNumbers = [...new Set(logs.map((log) => Number(log.blockNumber)))];
      const blocks = new Map(await Promise.all(blockNumbers.map(async (n) => [n, await block(n)] as const)));
      const facts: ChainOrderFact[] = [];
      for (const log of logs) {
        const emitter = log.address.toLowerCase() as `0x${string}`;
        const blockRef = blocks.get(Number(log.blockNumber));
        if (!blockRef)
          throw new Error(`${config.chainDomain}: block ${log.blockNumber} vanished while reading`);
        const location: ChainFactLocation = {
          chainDomain: config.chainDomain,
          onchainOrderId: log.args.orderId.toLowerCase() as Hex,
          blockNumber: Number(log.blockNumber),
          blockHash: log.blockHash.toLowerCase() as Hex,
          blockTimestamp: blockRef.timestamp,
          txHash: log.transactionHash.toLowerCase() as Hex,
          logIndex: log.logIndex,
          settler: emitter,
        };
        if (log.eventName === "OutputFilled") {
          if (!outputSettlers.has(emitter)) continue;
          facts.push({
            ...location,
            kind: "outputFilled",
            solver: log.args.solver.toLowerCase() as Hex,
            fillTimestamp: log.args.timestamp,
            output: mandateOutputToJson(log.args.output),
            finalAmount: log.args.finalAmount.toString(),
          });
          continue;
        }
        if (!escrows.has(emitter)) continue;
        if (log.eventName === "Open") {
          const { order } = log.args;
          facts.push({
            ...location,
            kind: "open",
            orderUser: order.user.toLowerCase() as `0x${string}`,
            fillDeadline: order.fillDeadline,
            expires: order.expires,
            standardOrder: standardOrderToJson(order),
          });
        } else if (log.eventName === "Finalised") {
          facts.push({
            ...location,
            kind: "finalised",
            solver: log.args.solver.toLowerCase() as Hex,
            destination: log.args.destination.toLowerCase() as Hex,
          });
        } else {
          facts.push({ ...location, kind: "refunded" });
        }
      }
      return facts;
    },
    async orderStatus(escrow, orderId) {
      const status = await client.readContract({
        address: escrow,
        abi: inputSettlerEscrowAbi,
        functionName: "orderStatus",
        args: [orderId],
      });
      const name = escrowStatuses[status];
      if (!name) throw new Error(`${config.chainDomain}: unknown escrow status ${status}`);
      return name;
    },
  };
}
