import {
  bridgeAbi,
  committeeOracleAbi,
  contractBytecodes,
  type DevnetAccount,
  type DevnetChain,
  type DevnetChainContracts,
  devnetErc20Abi,
  devnetUsdcAbi,
  installPermit2,
  PERMIT2_ADDRESS,
  swapRouterAbi,
  userProxyAbi,
  wrappedNativeAbi,
} from "@hub/chain";
import {
  type Address,
  createTestClient,
  encodeDeployData,
  encodeFunctionData,
  getContractAddress,
  type Hex,
  http,
  maxUint256,
  numberToHex,
  parseEther,
  parseUnits,
} from "viem";
import type { DevnetAccounts } from "./devnet-accounts.js";
import { jsonRpcBatch } from "./json-rpc-batch.js";

/** Balances the devnet hands out on every chain (base units). */
export const devnetFunding = {
  user: {
    usdc: parseUnits("1000000", 6),
    token: parseEther("1000000"),
    undeclaredToken: parseEther("1000000"),
  },
  solver: {
    usdc: parseUnits("10000000", 6),
    token: parseEther("10000000"),
    wrappedNative: parseEther("1000"),
  },
  bridge: { usdc: parseUnits("10000000", 6), token: parseEther("10000000"), native: parseEther("1000") },
  swapRouterUsdc: parseUnits("10000000", 6),
} as const;

/** SwapRouter pool rate: 1 undeclared token (18 decimals) buys 1 USDC (6 decimals). */
export const devnetSwapRate = { numerator: 10n ** 6n, denominator: 10n ** 18n } as const;

export const devnetCommitteeThreshold = 2;

export interface PlannedTransaction {
  from: DevnetAccount;
  to?: Address;
  data: Hex;
  value?: bigint;
  gas: bigint;
  label: string;
}

const deployOrder = [
  "usdc",
  "token",
  "wrappedNative",
  "undeclaredToken",
  "committeeOracle",
  "inputSettlerEscrow",
  "outputSettler",
  "swapRouter",
  "userProxy",
  "bridge",
] as const satisfies readonly Exclude<keyof DevnetChainContracts, "permit2">[];

/** Addresses the deployer's fixed deploy order gives on any fresh chain. */
export function devnetContractAddresses(deployer: Address): DevnetChainContracts {
  const entries = deployOrder.map((name, nonce) => [
    name,
    getContractAddress({ from: deployer, nonce: BigInt(nonce) }),
  ]);
  return { permit2: PERMIT2_ADDRESS, ...Object.fromEntries(entries) } as DevnetChainContracts;
}

/** What a deployment sends, in order: the contracts' deploys, then the funding calls. */
export interface DevnetDeploymentPlan {
  contracts: DevnetChainContracts;
  deploys: PlannedTransaction[];
  funding: PlannedTransaction[];
}

/** The devnet's deployment, the same on every chain: it depends on the accounts and the bytecode alone. */
export function planDevnetDeployment(accounts: DevnetAccounts): DevnetDeploymentPlan {
  const { deployer, relayer, committee, solvers, users } = accounts;
  const contracts = devnetContractAddresses(deployer.address);

  const constructorArgs: Record<(typeof deployOrder)[number], Hex> = {
    usdc: contractBytecodes.devnetUsdc,
    token: encodeDeployData({
      abi: devnetErc20Abi,
      bytecode: contractBytecodes.devnetErc20,
      args: ["Devnet Token", "TKN", 18],
    }),
    wrappedNative: contractBytecodes.wrappedNative,
    undeclaredToken: encodeDeployData({
      abi: devnetErc20Abi,
      bytecode: contractBytecodes.devnetErc20,
      args: ["Undeclared Token", "UND", 18],
    }),
    committeeOracle: encodeDeployData({
      abi: committeeOracleAbi,
      bytecode: contractBytecodes.committeeOracle,
      args: [committee.map((member) => member.address), BigInt(devnetCommitteeThreshold)],
    }),
    inputSettlerEscrow: contractBytecodes.inputSettlerEscrow,
    outputSettler: contractBytecodes.outputSettler,
    swapRouter: encodeDeployData({
      abi: swapRouterAbi,
      bytecode: contractBytecodes.swapRouter,
      args: [contracts.undeclaredToken, contracts.usdc, devnetSwapRate.numerator, devnetSwapRate.denominator],
    }),
    userProxy: encodeDeployData({
      abi: userProxyAbi,
      bytecode: contractBytecodes.userProxy,
      args: [contracts.inputSettlerEscrow, contracts.wrappedNative, contracts.swapRouter],
    }),
    bridge: encodeDeployData({ abi: bridgeAbi, bytecode: contractBytecodes.bridge, args: [relayer.address] }),
  };
  const deploys: PlannedTransaction[] = deployOrder.map((name) => ({
    from: deployer,
    data: constructorArgs[name],
    gas: 8_000_000n,
    label: `deploy ${name}`,
  }));

  const mint = (token: Address, to: Address, amount: bigint, label: string): PlannedTransaction => ({
    from: deployer,
    to: token,
    data: encodeFunctionData({ abi: devnetErc20Abi, functionName: "mint", args: [to, amount] }),
    gas: 200_000n,
    label,
  });
  const funding: PlannedTransaction[] = [];
  for (const user of users) {
    funding.push(mint(contracts.usdc, user.address, devnetFunding.user.usdc, "mint usdc to user"));
    funding.push(mint(contracts.token, user.address, devnetFunding.user.token, "mint token to user"));
    funding.push(
      mint(
        contracts.undeclaredToken,
        user.address,
        devnetFunding.user.undeclaredToken,
        "mint undeclared to user",
      ),
    );
  }
  for (const solver of solvers) {
    funding.push(mint(contracts.usdc, solver.address, devnetFunding.solver.usdc, "mint usdc to solver"));
    funding.push(mint(contracts.token, solver.address, devnetFunding.solver.token, "mint token to solver"));
  }
  funding.push(mint(contracts.usdc, contracts.swapRouter, devnetFunding.swapRouterUsdc, "fund swap pool"));
  funding.push(mint(contracts.usdc, contracts.bridge, devnetFunding.bridge.usdc, "fund bridge usdc"));
  funding.push(mint(contracts.token, contracts.bridge, devnetFunding.bridge.token, "fund bridge token"));
  funding.push({
    from: deployer,
    to: contracts.bridge,
    data: "0x",
    value: devnetFunding.bridge.native,
    gas: 100_000n,
    label: "fund bridge native",
  });
  // Solvers wrap native liquidity and approve the output settler once, so fills need no set-up.
  for (const solver of solvers) {
    funding.push({
      from: solver,
      to: contracts.wrappedNative,
      data: encodeFunctionData({ abi: wrappedNativeAbi, functionName: "deposit" }),
      value: devnetFunding.solver.wrappedNative,
      gas: 100_000n,
      label: "solver wraps native",
    });
    for (const token of [contracts.usdc, contracts.token, contracts.wrappedNative]) {
      funding.push({
        from: solver,
        to: token,
        data: encodeFunctionData({
          abi: devnetUsdcAbi,
          functionName: "approve",
          args: [contracts.outputSettler, maxUint256],
        }),
        gas: 100_000n,
        label: "solver approves output settler",
      });
    }
  }

  return { contracts, deploys, funding };
}

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
  return {
    chainDomain: `eip155:${chainId}`,
    chainId,
    rpcUrl,
    contracts,
    deployBlock: Number(deployReceipts[0]!.blockNumber),
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
    answers.forEach((answer, k) => {
      receipts[pending[k]!] = answer;
    });
  }
  const failed = receipts.flatMap((receipt, i) =>
    receipt!.status === "0x1" ? [] : [transactions[i]!.label],
  );
  if (failed.length > 0) throw new Error(`devnet chain ${chainId}: reverted: ${failed.join(", ")}`);
  return receipts as Receipt[];
}
