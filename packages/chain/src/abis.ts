import {
  bridgeArtifact,
  committeeOracleArtifact,
  devnetERC20Artifact,
  devnetUsdcArtifact,
  inputSettlerEscrowArtifact,
  outputSettlerArtifact,
  swapRouterArtifact,
  userProxyArtifact,
  wrappedNativeArtifact,
} from "../artifacts/contract-artifacts.js";

export const inputSettlerEscrowAbi = inputSettlerEscrowArtifact.abi;
export const outputSettlerAbi = outputSettlerArtifact.abi;
export const committeeOracleAbi = committeeOracleArtifact.abi;
/** The plain ERC-20 (declared and undeclared devnet tokens); mint is callable by the deployer. */
export const devnetErc20Abi = devnetERC20Artifact.abi;
/** USDC-like token: ERC-20, EIP-2612 permit, EIP-3009 transfer/receiveWithAuthorization. */
export const devnetUsdcAbi = devnetUsdcArtifact.abi;
export const wrappedNativeAbi = wrappedNativeArtifact.abi;
export const swapRouterAbi = swapRouterArtifact.abi;
export const userProxyAbi = userProxyArtifact.abi;
export const bridgeAbi = bridgeArtifact.abi;

/** Creation bytecode of each deployable contract. */
export const contractBytecodes = {
  inputSettlerEscrow: inputSettlerEscrowArtifact.bytecode,
  outputSettler: outputSettlerArtifact.bytecode,
  committeeOracle: committeeOracleArtifact.bytecode,
  devnetErc20: devnetERC20Artifact.bytecode,
  devnetUsdc: devnetUsdcArtifact.bytecode,
  wrappedNative: wrappedNativeArtifact.bytecode,
  swapRouter: swapRouterArtifact.bytecode,
  userProxy: userProxyArtifact.bytecode,
  bridge: bridgeArtifact.bytecode,
} as const;
