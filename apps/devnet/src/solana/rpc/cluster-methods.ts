import { z } from "zod";
import {
  bytesOfLength,
  context,
  contextConfig,
  parse,
  type SolanaRpcMethod,
  solanaStandInVersion,
} from "./solana-rpc-params.js";

/** The methods about the node and its slots: health, version, genesis, slot and blockhash. */
export const clusterMethods: Record<string, SolanaRpcMethod> = {
  getHealth: () => "ok",
  getVersion: () => solanaStandInVersion,
  getGenesisHash: (_params, { chain }) => chain.genesisHash,
  getSlot(params, deps) {
    const [config] = parse(z.tuple([contextConfig]), params);
    return context(deps, config).slot;
  },
  getBlockHeight(params, deps) {
    const [config] = parse(z.tuple([contextConfig]), params);
    return context(deps, config).slot;
  },
  getLatestBlockhash(params, deps) {
    const [config] = parse(z.tuple([contextConfig]), params);
    return { context: context(deps, config), value: deps.chain.latestBlockhash() };
  },
  isBlockhashValid(params, deps) {
    const [blockhash, config] = parse(z.tuple([z.string().max(44), contextConfig]), params);
    bytesOfLength(blockhash, 32);
    return { context: context(deps, config), value: deps.chain.isBlockhashValid(blockhash) };
  },
};
