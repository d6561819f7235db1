import {
  bridgeAbi,
  committeeOracleAbi,
  contractBytecodes,
  type DevnetAccount,
  type DevnetChainContracts,
  devnetErc20Abi,
  devnetUsdcAbi,
  PERMIT2_ADDRESS,
  swapRouterAbi,
  userProxyAbi,
  wrappedNativeAbi,
} from "@hub/chain";
import {
  type Address,
  encodeDeployData,
  encodeFunctionData,
  getContractAddress,
  type Hex,
  maxUint256,
  parseEther,
  parseUnits,
} from "viem";
import type { DevnetAccounts } from "./devnet-accounts.js";

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
  const contracts = devnetContractAddresses(accounts.deployer.address);
  return {
    contracts,
    deploys: deployTransactions(accounts, contracts),
    funding: fundingTransactions(accounts, contracts),
  };
}

function deployTransactions(
  { deployer, relayer, committee }: DevnetAccounts,
  contracts: DevnetChainContracts,
): PlannedTransaction[] {
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
  return deploys;
}

function fundingTransactions(
  { deployer, solvers, users }: DevnetAccounts,
  contracts: DevnetChainContracts,
): PlannedTransaction[] {
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
  return [...funding, ...solverSetUp(solvers, contracts)];
}

/** Solvers wrap native liquidity and approve the output settler once, so fills need no set-up. */
function solverSetUp(
  solvers: readonly DevnetAccount[],
  contracts: DevnetChainContracts,
): PlannedTransaction[] {
  const setUp: PlannedTransaction[] = [];
  for (const solver of solvers) {
    setUp.push({
      from: solver,
      to: contracts.wrappedNative,
      data: encodeFunctionData({ abi: wrappedNativeAbi, functionName: "deposit" }),
      value: devnetFunding.solver.wrappedNative,
      gas: 100_000n,
      label: "solver wraps native",
    });
    for (const token of [contracts.usdc, contracts.token, contracts.wrappedNative]) {
      setUp.push({
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
  return setUp;
}
