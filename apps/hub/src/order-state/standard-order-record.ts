/** One MandateOutput as stored: bytes32 and bytes fields lowercase 0x hex, uint256 decimal strings. */
export interface MandateOutputRecord {
  oracle: string;
  settler: string;
  chainId: string;
  token: string;
  amount: string;
  recipient: string;
  callbackData: string;
  context: string;
}

/** The StandardOrder decoded from an Open event, exact: uint256 as decimal strings, addresses lowercase. */
export interface StandardOrderRecord {
  user: string;
  nonce: string;
  originChainId: string;
  /** Unix seconds (uint32). */
  expires: number;
  /** Unix seconds (uint32). */
  fillDeadline: number;
  inputOracle: string;
  /** Each input as on chain: [uint256(uint160(token)), amount], both decimal strings. */
  inputs: [string, string][];
  outputs: MandateOutputRecord[];
}

export function sameMandateOutput(a: MandateOutputRecord, b: MandateOutputRecord): boolean {
  return (
    a.oracle === b.oracle &&
    a.settler === b.settler &&
    a.chainId === b.chainId &&
    a.token === b.token &&
    a.amount === b.amount &&
    a.recipient === b.recipient &&
    a.callbackData === b.callbackData &&
    a.context === b.context
  );
}
