import { concat, encodeAbiParameters, type Hex, size } from "viem";

function requireSignature65(signature: Hex): void {
  if (size(signature) !== 65)
    throw new Error(`expected a 65-byte ECDSA signature, got ${size(signature)} bytes`);
}

/** openFor signature for the Permit2 lane: 0x00 ‖ sig65. */
export function encodePermit2OpenForSignature(signature: Hex): Hex {
  requireSignature65(signature);
  return concat(["0x00", signature]);
}

/** openFor signature for the EIP-3009 lane: 0x01 ‖ sig65, or 0x01 ‖ abi.encode(bytes[]) for several inputs. */
export function encodeEip3009OpenForSignature(signatures: Hex | readonly Hex[]): Hex {
  if (typeof signatures === "string") {
    requireSignature65(signatures);
    return concat(["0x01", signatures]);
  }
  signatures.forEach(requireSignature65);
  return concat(["0x01", encodeAbiParameters([{ type: "bytes[]" }], [signatures])]);
}
