import { parseAbi } from "viem";

// The fragments a solver calls, written to the public OIF interfaces the devnet contracts implement.
const order =
  "(address user,uint256 nonce,uint256 originChainId,uint32 expires,uint32 fillDeadline,address inputOracle,uint256[2][] inputs,(bytes32 oracle,bytes32 settler,uint256 chainId,bytes32 token,uint256 amount,bytes32 recipient,bytes callbackData,bytes context)[] outputs)";
const output =
  "(bytes32 oracle,bytes32 settler,uint256 chainId,bytes32 token,uint256 amount,bytes32 recipient,bytes callbackData,bytes context)";

export const inputSettlerEscrowAbi = parseAbi([
  `function openFor(${order} order, address sponsor, bytes signature)`,
  `function open(${order} order)`,
  `function finalise(${order} order, (uint32 timestamp, bytes32 solver)[] solveParams, bytes32 destination, bytes call)`,
  `function orderIdentifier(${order} order) view returns (bytes32)`,
  "function orderStatus(bytes32 orderId) view returns (uint8)",
  `event Open(bytes32 indexed orderId, ${order} order)`,
  "event Finalised(bytes32 indexed orderId, bytes32 solver, bytes32 destination)",
  "event Refunded(bytes32 indexed orderId)",
]);

export const outputSettlerAbi = parseAbi([
  `function fill(bytes32 orderId, ${output} output, uint48 fillDeadline, bytes fillerData) payable returns (bytes32)`,
  `event OutputFilled(bytes32 indexed orderId, bytes32 solver, uint32 timestamp, ${output} output, uint256 finalAmount)`,
]);

export const inputOracleAbi = parseAbi([
  "function isProven(uint256 remoteChainId, bytes32 remoteOracle, bytes32 application, bytes32 dataHash) view returns (bool)",
]);

export const erc20Abi = parseAbi([
  "function approve(address spender, uint256 value) returns (bool)",
  "function allowance(address owner, address spender) view returns (uint256)",
  "function balanceOf(address account) view returns (uint256)",
  "function name() view returns (string)",
  "function symbol() view returns (string)",
  "function decimals() view returns (uint8)",
  "function version() view returns (string)",
]);

/** The escrow's orderStatus enum. */
export const escrowOrderStatus = { None: 0, Deposited: 1, Claimed: 2, Refunded: 3 } as const;
