import { HubError, type Lane } from "@hub/contract";
import { openForEnvelopeOf } from "../chains/chain-families.js";
import { laneTable } from "../lanes/lane-table.js";

const HEX_65 = /^0x[0-9a-fA-F]{130}$/;
const PERMIT2_66 = /^0x00[0-9a-fA-F]{130}$/;
const EIP3009_66 = /^0x01[0-9a-fA-F]{130}$/;

function refuse(message: string): never {
  throw new HubError("EIN0001", { reference: "signature", message });
}

/**
 * The signature checked against the quote's lane and put in the form forwarded upstream, or undefined
 * on a proxy lane. The upstream passes the bytes unchanged to the escrow's openFor, which dispatches on
 * byte 0, so the EIP-3009 lane's raw 65-byte form is forwarded with its `0x01` scheme byte. An empty
 * string counts as absent.
 */
export function normaliseOpenForSignature(lane: Lane, signature: string | undefined): string | undefined {
  const present = signature !== undefined && signature !== "";
  const check = laneTable[lane].signature;
  if (check === "omitted") {
    if (present) refuse("Omit signature on a proxy lane: the deposit is the user's own transaction.");
    return undefined;
  }
  if (!present) refuse("signature is required on this quote's lane: sign its signPayload.");
  const value = signature as string;
  switch (check) {
    case "permit2":
      if (!PERMIT2_66.test(value))
        refuse("Permit2 lane: 0x00 followed by the 65-byte ECDSA signature (66 bytes as 0x hex).");
      return value.toLowerCase();
    case "eip3009":
      if (HEX_65.test(value)) return `0x01${value.slice(2).toLowerCase()}`;
      if (EIP3009_66.test(value)) return value.toLowerCase();
      return refuse("EIP-3009 lane: the 65-byte signature as 0x hex, or 0x01 followed by it.");
    default: {
      const envelope = openForEnvelopeOf(check);
      if (envelope) return envelope.normalise(value);
      return refuse("This quote's lane takes no signature here.");
    }
  }
}
