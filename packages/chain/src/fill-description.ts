import { encodePacked, type Hex, keccak256, size } from "viem";
import type { MandateOutput } from "./standard-order.js";

/**
 * The FillDescription payload an oracle carries from the output chain:
 * SOLVER ‖ ORDERID ‖ TIMESTAMP(4) ‖ TOKEN ‖ AMOUNT ‖ RECIPIENT ‖ CALLBACK_LEN(2) ‖ CALLBACK ‖ CONTEXT_LEN(2) ‖ CONTEXT.
 */
export function fillDescriptionPayload(fill: {
  solver: Hex;
  orderId: Hex;
  timestamp: number;
  output: MandateOutput;
}): Hex {
  const { output } = fill;
  return encodePacked(
    ["bytes32", "bytes32", "uint32", "bytes32", "uint256", "bytes32", "uint16", "bytes", "uint16", "bytes"],
    [
      fill.solver,
      fill.orderId,
      fill.timestamp,
      output.token,
      output.amount,
      output.recipient,
      size(output.callbackData),
      output.callbackData,
      size(output.context),
      output.context,
    ],
  );
}

export function fillDescriptionHash(fill: Parameters<typeof fillDescriptionPayload>[0]): Hex {
  return keccak256(fillDescriptionPayload(fill));
}
