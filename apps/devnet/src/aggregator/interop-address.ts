import { getAddress } from "viem";

/** An EVM account on one chain, the decoded form of an ERC-7930 interop address. */
export interface InteropAddress {
  chainId: number;
  address: `0x${string}`;
}

const VERSION = "0001";
const EIP155 = "0000";

/** ERC-7930 hex: version 0x0001, chain type 0x0000 (eip155), minimal big-endian chain reference, 20-byte address. */
export function encodeInteropAddress(chainId: number, address: string): `0x${string}` {
  if (!Number.isSafeInteger(chainId) || chainId <= 0) throw new Error(`bad chain id ${chainId}`);
  let reference = chainId.toString(16);
  if (reference.length % 2) reference = `0${reference}`;
  const addr = address.toLowerCase().replace(/^0x/, "");
  if (!/^[0-9a-f]{40}$/.test(addr)) throw new Error(`bad address ${address}`);
  const referenceLength = (reference.length / 2).toString(16).padStart(2, "0");
  return `0x${VERSION}${EIP155}${referenceLength}${reference}14${addr}`;
}

/** Decodes ERC-7930 hex (any case); undefined when it is not an eip155 address in that layout. */
export function decodeInteropAddress(value: string): InteropAddress | undefined {
  const hex = value.toLowerCase();
  const match = /^0x0001(0000)([0-9a-f]{2})([0-9a-f]*)$/.exec(hex);
  const [, , lengthHex, rest] = match ?? [];
  if (lengthHex === undefined || rest === undefined) return undefined;
  const referenceLength = Number.parseInt(lengthHex, 16);
  if (referenceLength < 1 || referenceLength > 8) return undefined;
  const reference = rest.slice(0, referenceLength * 2);
  if (reference.startsWith("00")) return undefined;
  if (rest.slice(referenceLength * 2, referenceLength * 2 + 2) !== "14") return undefined;
  const address = rest.slice(referenceLength * 2 + 2);
  if (address.length !== 40) return undefined;
  const chainId = Number.parseInt(reference, 16);
  if (!Number.isSafeInteger(chainId) || chainId <= 0) return undefined;
  return { chainId, address: getAddress(`0x${address}`) };
}
