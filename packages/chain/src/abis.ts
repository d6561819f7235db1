import { parseAbi } from "viem";
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

type AbiItem = { readonly type: string };

function errorsOf<const T extends readonly AbiItem[]>(abi: T) {
  return abi.filter((item): item is Extract<T[number], { type: "error" }> => item.type === "error");
}

/** Errors the canonical Permit2 raises, so reverts inside openFor decode by name. */
export const permit2ErrorsAbi = parseAbi([
  "error InvalidSigner()",
  "error InvalidNonce()",
  "error SignatureExpired(uint256 signatureDeadline)",
  "error InvalidSignatureLength()",
  "error InvalidSignature()",
  "error InvalidAmount(uint256 maxAmount)",
  "error LengthMismatch()",
  "error InvalidContractSignature()",
]);

/** The escrow's ABI plus the errors of the contracts it calls (oracle, tokens, Permit2), so viem names every revert. */
export const inputSettlerEscrowAbi = [
  ...inputSettlerEscrowArtifact.abi,
  ...errorsOf(committeeOracleArtifact.abi),
  ...errorsOf(devnetUsdcArtifact.abi),
  ...permit2ErrorsAbi,
] as const;
export const outputSettlerAbi = outputSettlerArtifact.abi;
export const committeeOracleAbi = committeeOracleArtifact.abi;
/** The plain ERC-20 (declared and undeclared devnet tokens); mint is callable by the deployer. */
export const devnetErc20Abi = devnetERC20Artifact.abi;
/** USDC-like token: ERC-20, EIP-2612 permit, EIP-3009 transfer/receiveWithAuthorization. */
export const devnetUsdcAbi = devnetUsdcArtifact.abi;
export const wrappedNativeAbi = wrappedNativeArtifact.abi;
export const swapRouterAbi = swapRouterArtifact.abi;
/** The proxy's ABI plus the errors of the escrow, router and tokens it calls. */
export const userProxyAbi = [
  ...userProxyArtifact.abi,
  ...errorsOf(inputSettlerEscrowArtifact.abi),
  ...errorsOf(swapRouterArtifact.abi),
  ...errorsOf(devnetUsdcArtifact.abi),
] as const;
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
