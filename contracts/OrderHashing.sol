// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {MandateOutput, StandardOrder} from "./OrderTypes.sol";

/// Hashes that wallets, solvers and oracles must agree on byte for byte with the public OIF contracts.
library OrderHashing {
    bytes constant MANDATE_OUTPUT_TYPE =
        "MandateOutput(bytes32 oracle,bytes32 settler,uint256 chainId,bytes32 token,uint256 amount,bytes32 recipient,bytes callbackData,bytes context)";
    bytes32 constant MANDATE_OUTPUT_TYPEHASH = keccak256(MANDATE_OUTPUT_TYPE);
    bytes32 constant PERMIT2_WITNESS_TYPEHASH = keccak256(
        "Permit2Witness(address user,uint32 expires,address inputOracle,MandateOutput[] outputs)MandateOutput(bytes32 oracle,bytes32 settler,uint256 chainId,bytes32 token,uint256 amount,bytes32 recipient,bytes callbackData,bytes context)"
    );
    // Permit2 appends this to "PermitBatchWitnessTransferFrom(TokenPermissions[] permitted,address spender,uint256 nonce,uint256 deadline,";
    // the referenced types are sorted by name, as EIP-712 requires.
    string constant PERMIT2_WITNESS_TYPESTRING =
        "Permit2Witness witness)MandateOutput(bytes32 oracle,bytes32 settler,uint256 chainId,bytes32 token,uint256 amount,bytes32 recipient,bytes callbackData,bytes context)Permit2Witness(address user,uint32 expires,address inputOracle,MandateOutput[] outputs)TokenPermissions(address token,uint256 amount)";

    function orderIdentifier(StandardOrder calldata order, uint256 chainId, address settler)
        internal
        pure
        returns (bytes32)
    {
        return keccak256(
            abi.encodePacked(
                chainId,
                settler,
                order.user,
                order.nonce,
                order.expires,
                order.fillDeadline,
                order.inputOracle,
                keccak256(abi.encodePacked(order.inputs)),
                abi.encode(order.outputs)
            )
        );
    }

    function hashOutput(MandateOutput calldata output) internal pure returns (bytes32) {
        return keccak256(
            abi.encode(
                MANDATE_OUTPUT_TYPEHASH,
                output.oracle,
                output.settler,
                output.chainId,
                output.token,
                output.amount,
                output.recipient,
                keccak256(output.callbackData),
                keccak256(output.context)
            )
        );
    }

    function permit2WitnessHash(StandardOrder calldata order) internal pure returns (bytes32) {
        bytes32[] memory hashes = new bytes32[](order.outputs.length);
        for (uint256 i = 0; i < hashes.length; i++) {
            hashes[i] = hashOutput(order.outputs[i]);
        }
        return keccak256(
            abi.encode(
                PERMIT2_WITNESS_TYPEHASH,
                order.user,
                order.expires,
                order.inputOracle,
                keccak256(abi.encodePacked(hashes))
            )
        );
    }

    /// The FillDescription an oracle carries from the output chain:
    /// SOLVER ‖ ORDERID ‖ TIMESTAMP(4) ‖ TOKEN ‖ AMOUNT ‖ RECIPIENT ‖ CALLBACK_LEN(2) ‖ CALLBACK ‖ CONTEXT_LEN(2) ‖ CONTEXT.
    function fillDescription(bytes32 solver, bytes32 orderId, uint32 timestamp, MandateOutput calldata output)
        internal
        pure
        returns (bytes memory)
    {
        require(output.callbackData.length <= type(uint16).max && output.context.length <= type(uint16).max);
        return abi.encodePacked(
            solver,
            orderId,
            timestamp,
            output.token,
            output.amount,
            output.recipient,
            uint16(output.callbackData.length),
            output.callbackData,
            uint16(output.context.length),
            output.context
        );
    }
}
