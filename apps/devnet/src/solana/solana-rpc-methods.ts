import { accountMethods } from "./rpc/account-methods.js";
import { clusterMethods } from "./rpc/cluster-methods.js";
import { historyMethods } from "./rpc/history-methods.js";
import type { SolanaRpcDeps, SolanaRpcMethod } from "./rpc/solana-rpc-params.js";
import { transactionMethods } from "./rpc/transaction-methods.js";
import { invalidParams, SolanaRpcError, solanaRpcErrorCodes } from "./solana-rpc-error.js";

export { type SolanaRpcDeps, solanaStandInVersion } from "./rpc/solana-rpc-params.js";

const methods: Record<string, SolanaRpcMethod> = {
  ...clusterMethods,
  ...accountMethods,
  ...transactionMethods,
  ...historyMethods,
};

/** Runs one call; every refusal is a SolanaRpcError. */
export function callSolanaRpcMethod(method: string, params: unknown, deps: SolanaRpcDeps): unknown {
  const run = Object.hasOwn(methods, method) ? methods[method] : undefined;
  if (!run) throw new SolanaRpcError(solanaRpcErrorCodes.methodNotFound, "Method not found");
  if (params !== undefined && !Array.isArray(params))
    throw invalidParams("Invalid params: params must be an array");
  return run(params ?? [], deps);
}
