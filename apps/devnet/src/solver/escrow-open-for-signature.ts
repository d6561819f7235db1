import { concat, type Hex } from "viem";
import type { OifOrder } from "../aggregator/oif-quote.js";

/**
 * The bytes a solver hands to `openFor`: a 65-byte signature gets the order type's scheme byte
 * (`0x00` Permit2, `0x01` EIP-3009) in front; a 66-byte one must already start with it.
 * Undefined when the signature fits neither.
 */
export function escrowOpenForSignature(signature: string, orderType: OifOrder["type"]): Hex | undefined {
  const hex = (signature.startsWith("0x") ? signature : `0x${signature}`).toLowerCase() as Hex;
  if (!/^0x[0-9a-f]*$/.test(hex)) return undefined;
  const bytes = (hex.length - 2) / 2;
  const scheme: Hex = orderType === "oif-3009-v0" ? "0x01" : "0x00";
  if (bytes === 65) return concat([scheme, hex]);
  if (bytes === 66 && hex.slice(2, 4) === scheme.slice(2)) return hex;
  return undefined;
}
