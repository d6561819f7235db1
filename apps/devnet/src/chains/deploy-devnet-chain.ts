import { type DevnetChain, type DevnetChainContracts, installPermit2 } from "@hub/chain";
import { type Address, createTestClient, type Hex, http, numberToHex } from "viem";
import type { DevnetAccounts } from "./devnet-accounts.js";
import { jsonRpcBatch } from "./json-rpc-batch.js";
import {
  type DevnetDeploymentPlan,
  type PlannedTransaction,
  planDevnetDeployment,
} from "./plan-devnet-deployment.js";

/**
 * Deploys every devnet contract on a fresh anvil chain in a fixed order (so addresses are the same on
 * every start), installs Permit2, and funds users, solvers, the swap pool and the bridge. Transactions
 * are signed by anvil and sent in batches; only each phase's receipts are awaited.
 */
export async function deployDevnetChain(params: {
  rpcUrl: string;
  chainId: number;
  accounts: DevnetAccounts;
  /** planDevnetDeployment(accounts), when the caller has it already. */
  plan?: DevnetDeploymentPlan;
}): Promise<DevnetChain> {
  const { rpcUrl, chainId, accounts } = params;
  const { deployer } = accounts;
  const { contracts, deploys, funding } = params.plan ?? planDevnetDeployment(accounts);
  const [deployerNonce] = await jsonRpcBatch(rpcUrl, [
    { method: "eth_getTransactionCount", params: [deployer.address, "latest"] },
  ]);
  if (Number(deployerNonce) !== 0) {
    throw new Error(
      `chain ${chainId} at ${rpcUrl} is not fresh: the devnet deployer already sent transactions`,
    );
  }
  await installPermit2(createTestClient({ mode: "anvil", transport: http(rpcUrl) }));
  await jsonRpcBatch(rpcUrl, [{ method: "evm_setAutomine", params: [false] }]);
  const nonces = new Map<Address, number>();
  const deployReceipts = await sendAll(rpcUrl, chainId, deploys, nonces);
  // Funding calls go to the contracts just deployed: a call to a not-yet-deployed address would succeed silently.
  await sendAll(rpcUrl, chainId, funding, nonces);
  await jsonRpcBatch(rpcUrl, [{ method: "evm_setAutomine", params: [true] }]);
  await checkDevnetContracts(rpcUrl, chainId, contracts);
  const [firstReceipt] = deployReceipts;
  if (firstReceipt === undefined) throw new Error(`devnet chain ${chainId}: no deployment was mined`);
  return {
    chainDomain: `eip155:${chainId}`,
    chainId,
    rpcUrl,
    contracts,
    deployBlock: Number(firstReceipt.blockNumber),
  };
}

/** Fails unless every devnet contract has code on the chain. */
export async function checkDevnetContracts(
  rpcUrl: string,
  chainId: number,
  contracts: DevnetChainContracts,
): Promise<void> {
  const codes = (await jsonRpcBatch(
    rpcUrl,
    [...Object.values(contracts)].map((address) => ({ method: "eth_getCode", params: [address, "latest"] })),
  )) as Hex[];
  codes.forEach((code, i) => {
    if (code === "0x") throw new Error(`no code at ${Object.keys(contracts)[i]} on chain ${chainId}`);
  });
}

interface Receipt {
  status: Hex;
  blockNumber: Hex;
  contractAddress: Address | null;
}

async function sendAll(
  rpcUrl: string,
  chainId: number,
  transactions: PlannedTransaction[],
  nonces: Map<Address, number>,
): Promise<Receipt[]> {
  // anvil holds the devnet mnemonic's keys, so it signs: no secp256k1 work in this process.
  const hashes = (await jsonRpcBatch(
    rpcUrl,
    transactions.map((tx) => {
      const nonce = nonces.get(tx.from.address) ?? 0;
      nonces.set(tx.from.address, nonce + 1);
      return {
        method: "eth_sendTransaction",
        params: [
          {
            from: tx.from.address,
            ...(tx.to ? { to: tx.to } : {}),
            data: tx.data,
            value: numberToHex(tx.value ?? 0n),
            gas: numberToHex(tx.gas),
            nonce: numberToHex(nonce),
          },
        ],
      };
    }),
  )) as Hex[];
  const receipts: (Receipt | null)[] = hashes.map(() => null);
  const deadline = Date.now() + 20_000;
  // Automine is off: each evm_mine takes as many pending transactions as the block gas limit allows.
  while (receipts.some((receipt) => receipt === null)) {
    if (Date.now() > deadline) throw new Error(`devnet chain ${chainId}: transactions not mined within 20 s`);
    await jsonRpcBatch(rpcUrl, [{ method: "evm_mine", params: [] }]);
    const pending = receipts.flatMap((receipt, i) => (receipt === null ? [i] : []));
    const answers = (await jsonRpcBatch(
      rpcUrl,
      pending.map((i) => ({ method: "eth_getTransactionReceipt", params: [hashes[i]] })),
    )) as (Receipt | null)[];
    pending.forEach((i, k) => {
      receipts[i] = answers[k] ?? null;
    });
  }
  const failed = transactions.flatMap((transaction, i) =>
    receipts[i]?.status === "0x1" ? [] : [transaction.label],
  );
  if (failed.length > 0) throw new Error(`devnet chain ${chainId}: reverted: ${failed.join(", ")}`);
  return receipts as Receipt[];
}
