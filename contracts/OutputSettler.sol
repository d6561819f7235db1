// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {IOutputCallback} from "./Interfaces.sol";
import {MandateOutput} from "./OrderTypes.sol";
import {SafeTransfer} from "./SafeTransfer.sol";

/// Output settler: a solver delivers one output of an order to its recipient, once, before the deadline.
/// The fill record (solver, timestamp) is what an oracle attests back to the origin chain.
contract OutputSettler {
    using SafeTransfer for address;

    mapping(bytes32 orderId => mapping(bytes32 outputHash => bytes32 record)) public fillRecords;

    event OutputFilled(
        bytes32 indexed orderId, bytes32 solver, uint32 timestamp, MandateOutput output, uint256 finalAmount
    );

    error FillDeadline();
    error WrongChain(uint256 expected, uint256 actual);
    error WrongOutputSettler(bytes32 settler);
    error ZeroSolver();
    error UnsupportedContext();
    error WrongNativeAmount(uint256 expected, uint256 sent);

    function outputHash(MandateOutput calldata output) public pure returns (bytes32) {
        return keccak256(abi.encode(output));
    }

    function getFillRecord(bytes32 orderId, MandateOutput calldata output) external view returns (bytes32) {
        return fillRecords[orderId][outputHash(output)];
    }

    /// fillerData is the 32-byte solver identifier. A repeated fill of the same output returns the
    /// first record and moves no funds (any value sent is returned).
    function fill(bytes32 orderId, MandateOutput calldata output, uint48 fillDeadline, bytes calldata fillerData)
        external
        payable
        returns (bytes32 fillRecord)
    {
        if (fillDeadline < block.timestamp) revert FillDeadline();
        if (output.chainId != block.chainid) revert WrongChain(block.chainid, output.chainId);
        if (output.settler != bytes32(uint256(uint160(address(this))))) revert WrongOutputSettler(output.settler);
        if (output.context.length > 1 || (output.context.length == 1 && output.context[0] != 0x00)) {
            revert UnsupportedContext();
        }
        bytes32 solver = bytes32(fillerData[0:32]);
        if (solver == bytes32(0)) revert ZeroSolver();

        bytes32 hash = outputHash(output);
        bytes32 existing = fillRecords[orderId][hash];
        if (existing != bytes32(0)) {
            if (msg.value != 0) msg.sender.sendNative(msg.value);
            return existing;
        }

        uint32 timestamp = uint32(block.timestamp);
        fillRecord = keccak256(abi.encodePacked(solver, timestamp));
        fillRecords[orderId][hash] = fillRecord;

        address recipient = address(uint160(uint256(output.recipient)));
        if (output.token == bytes32(0)) {
            if (msg.value != output.amount) revert WrongNativeAmount(output.amount, msg.value);
            recipient.sendNative(output.amount);
        } else {
            if (msg.value != 0) revert WrongNativeAmount(0, msg.value);
            address(uint160(uint256(output.token))).safeTransferFrom(msg.sender, recipient, output.amount);
        }
        if (output.callbackData.length != 0) {
            IOutputCallback(recipient).outputFilled(output.token, output.amount, output.callbackData);
        }
        emit OutputFilled(orderId, solver, timestamp, output, output.amount);
    }
}
