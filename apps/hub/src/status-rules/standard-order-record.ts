import type { MandateOutputJson, StandardOrderJson } from "@hub/chain";

/** One MandateOutput as stored: bytes32 and bytes fields lowercase 0x hex, uint256 decimal strings. */
export type MandateOutputRecord = MandateOutputJson;

/** The StandardOrder decoded from an Open event, exact: uint256 as decimal strings, addresses lowercase. */
export type StandardOrderRecord = StandardOrderJson;

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
