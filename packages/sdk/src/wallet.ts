/** EIP-712 typed data as eth_signTypedData_v4 takes it (types may include EIP712Domain). */
export interface TypedData {
  domain: Record<string, unknown>;
  types: Record<string, { name: string; type: string }[]>;
  primaryType: string;
  message: Record<string, unknown>;
}

/** One transaction the wallet sends itself: the service never sends any. */
export interface EvmTransaction {
  chainId: number;
  to: string;
  data: string;
  value: bigint;
}

/**
 * What `submit` needs of an EVM wallet. `@intent-hub/sdk/viem` makes one from a viem account; any other
 * wallet library fits by implementing these five members.
 */
export interface EvmWallet {
  /** The paying account: the quote's sourceAccount. */
  address: string;
  /** eth_signTypedData_v4: the 65-byte signature as 0x hex. */
  signTypedData(typed: TypedData): Promise<string>;
  /** personal_sign (EIP-191) of the message, verbatim. */
  signMessage(message: string): Promise<string>;
  /** Sends one transaction; resolves to its hash once it is sent. */
  sendTransaction(tx: EvmTransaction): Promise<string>;
  /** Waits for the transaction's receipt; true when it succeeded. */
  waitForTransaction(chainId: number, hash: string): Promise<boolean>;
}

/** An executionTx chainId as an EVM chain id: an integer on the proxy lanes, `eip155:<id>` on the open flow. */
export function evmChainIdOf(chainId: number | string): number {
  if (typeof chainId === "number") return chainId;
  const match = /^eip155:(\d+)$/.exec(chainId);
  if (!match) throw new TypeError(`not an EVM chain: ${chainId}`);
  return Number(match[1]);
}

/** Calldata of ERC-20 `approve(spender, amount)`, without an ABI library. */
export function approveCalldata(spender: string, amount: bigint): string {
  const word = (hex: string) => hex.toLowerCase().replace(/^0x/, "").padStart(64, "0");
  return `0x095ea7b3${word(spender)}${word(amount.toString(16))}`;
}
