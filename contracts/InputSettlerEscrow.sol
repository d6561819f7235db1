// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {IInputCallback, IInputOracle, IPermit2, IReceiveWithAuthorization} from "./Interfaces.sol";
import {OrderHashing} from "./OrderHashing.sol";
import {MandateOutput, SolveParams, StandardOrder} from "./OrderTypes.sol";
import {SafeTransfer} from "./SafeTransfer.sol";

/// Escrow input settler for the public OIF StandardOrder: holds the inputs until the input oracle
/// proves every output was filled (then pays the solver) or the order expires (then refunds the user).
contract InputSettlerEscrow {
    using SafeTransfer for address;

    enum OrderStatus {
        None,
        Deposited,
        Claimed,
        Refunded
    }

    address public constant PERMIT2 = 0x000000000022D473030F116dDEE9F6B43aC78BA3;
    bytes1 constant SIGNATURE_PERMIT2 = 0x00;
    bytes1 constant SIGNATURE_EIP3009 = 0x01;

    mapping(bytes32 orderId => OrderStatus) public orderStatus;

    event Open(bytes32 indexed orderId, StandardOrder order);
    event Refunded(bytes32 indexed orderId);
    event Finalised(bytes32 indexed orderId, bytes32 solver, bytes32 destination);

    error WrongChain(uint256 expected, uint256 actual);
    error TimestampPassed();
    error TimestampNotPassed();
    error FillDeadlineAfterExpiry(uint32 fillDeadline, uint32 expires);
    error InvalidOrderStatus();
    error SignatureNotSupported(bytes1 kind);
    error SignatureAndInputsNotEqual();
    error InvalidInputToken();
    error NotOrderOwner();
    error InvalidSolveParams();
    error FilledTooLate(uint32 fillDeadline, uint32 filledAt);

    function orderIdentifier(StandardOrder calldata order) external view returns (bytes32) {
        return OrderHashing.orderIdentifier(order, block.chainid, address(this));
    }

    /// Opens the order with inputs taken from the caller (who approved this contract); refunds go to order.user.
    function open(StandardOrder calldata order) external {
        bytes32 orderId = _validateAndMark(order);
        uint256[2][] calldata inputs = order.inputs;
        for (uint256 i = 0; i < inputs.length; i++) {
            _token(inputs[i][0]).safeTransferFrom(msg.sender, address(this), inputs[i][1]);
        }
        emit Open(orderId, order);
    }

    /// Opens the order on behalf of sponsor: signature[0] selects Permit2 (0x00) or EIP-3009 (0x01);
    /// an empty signature means the sponsor is the caller and has approved this contract.
    function openFor(StandardOrder calldata order, address sponsor, bytes calldata signature) external {
        bytes32 orderId = _validateAndMark(order);
        if (signature.length == 0) {
            if (msg.sender != sponsor) revert SignatureNotSupported(0xff);
            uint256[2][] calldata inputs = order.inputs;
            for (uint256 i = 0; i < inputs.length; i++) {
                _token(inputs[i][0]).safeTransferFrom(sponsor, address(this), inputs[i][1]);
            }
        } else if (signature[0] == SIGNATURE_PERMIT2) {
            _openWithPermit2(order, sponsor, signature[1:]);
        } else if (signature[0] == SIGNATURE_EIP3009) {
            _openWithEip3009(order, orderId, sponsor, signature[1:]);
        } else {
            revert SignatureNotSupported(signature[0]);
        }
        emit Open(orderId, order);
    }

    /// After expiry anyone may return the inputs, and only to order.user.
    function refund(StandardOrder calldata order) external {
        if (block.timestamp <= order.expires) revert TimestampNotPassed();
        bytes32 orderId = OrderHashing.orderIdentifier(order, block.chainid, address(this));
        if (orderStatus[orderId] != OrderStatus.Deposited) revert InvalidOrderStatus();
        orderStatus[orderId] = OrderStatus.Refunded;
        _pay(order.inputs, order.user);
        emit Refunded(orderId);
    }

    /// Pays the inputs to destination once the input oracle has proven every output filled in time.
    /// Only the solver of the first output (the order's owner) may call it.
    function finalise(
        StandardOrder calldata order,
        SolveParams[] calldata solveParams,
        bytes32 destination,
        bytes calldata call
    ) external {
        if (solveParams.length != order.outputs.length || solveParams.length == 0) revert InvalidSolveParams();
        if (solveParams[0].solver != bytes32(uint256(uint160(msg.sender)))) revert NotOrderOwner();
        bytes32 orderId = OrderHashing.orderIdentifier(order, block.chainid, address(this));
        if (orderStatus[orderId] != OrderStatus.Deposited) revert InvalidOrderStatus();

        bytes memory proofSeries = new bytes(128 * solveParams.length);
        for (uint256 i = 0; i < solveParams.length; i++) {
            if (solveParams[i].timestamp > order.fillDeadline) {
                revert FilledTooLate(order.fillDeadline, solveParams[i].timestamp);
            }
            MandateOutput calldata output = order.outputs[i];
            bytes32 payloadHash = keccak256(
                OrderHashing.fillDescription(solveParams[i].solver, orderId, solveParams[i].timestamp, output)
            );
            uint256 chainId = output.chainId;
            bytes32 oracle = output.oracle;
            bytes32 settler = output.settler;
            assembly ("memory-safe") {
                let chunk := add(add(proofSeries, 32), mul(i, 128))
                mstore(chunk, chainId)
                mstore(add(chunk, 32), oracle)
                mstore(add(chunk, 64), settler)
                mstore(add(chunk, 96), payloadHash)
            }
        }
        IInputOracle(order.inputOracle).efficientRequireProven(proofSeries);

        orderStatus[orderId] = OrderStatus.Claimed;
        address to = address(uint160(uint256(destination)));
        _pay(order.inputs, to);
        if (call.length != 0) IInputCallback(to).orderFinalised(order.inputs, call);
        emit Finalised(orderId, solveParams[0].solver, destination);
    }

    function _validateAndMark(StandardOrder calldata order) private returns (bytes32 orderId) {
        if (order.originChainId != block.chainid) revert WrongChain(block.chainid, order.originChainId);
        if (block.timestamp >= order.fillDeadline || block.timestamp >= order.expires) revert TimestampPassed();
        if (order.fillDeadline > order.expires) revert FillDeadlineAfterExpiry(order.fillDeadline, order.expires);
        orderId = OrderHashing.orderIdentifier(order, block.chainid, address(this));
        if (orderStatus[orderId] != OrderStatus.None) revert InvalidOrderStatus();
        orderStatus[orderId] = OrderStatus.Deposited;
    }

    function _openWithPermit2(StandardOrder calldata order, address sponsor, bytes calldata signature) private {
        uint256[2][] calldata inputs = order.inputs;
        IPermit2.TokenPermissions[] memory permitted = new IPermit2.TokenPermissions[](inputs.length);
        IPermit2.SignatureTransferDetails[] memory details = new IPermit2.SignatureTransferDetails[](inputs.length);
        for (uint256 i = 0; i < inputs.length; i++) {
            permitted[i] = IPermit2.TokenPermissions({token: _token(inputs[i][0]), amount: inputs[i][1]});
            details[i] = IPermit2.SignatureTransferDetails({to: address(this), requestedAmount: inputs[i][1]});
        }
        IPermit2(PERMIT2).permitWitnessTransferFrom(
            IPermit2.PermitBatchTransferFrom({permitted: permitted, nonce: order.nonce, deadline: order.fillDeadline}),
            details,
            sponsor,
            OrderHashing.permit2WitnessHash(order),
            OrderHashing.PERMIT2_WITNESS_TYPESTRING,
            signature
        );
    }

    function _openWithEip3009(StandardOrder calldata order, bytes32 orderId, address sponsor, bytes calldata signature)
        private
    {
        uint256[2][] calldata inputs = order.inputs;
        if (inputs.length == 1 && signature.length == 65) {
            _receive(inputs[0], orderId, sponsor, order.fillDeadline, signature);
            return;
        }
        bytes[] memory signatures = abi.decode(signature, (bytes[]));
        if (signatures.length != inputs.length) revert SignatureAndInputsNotEqual();
        for (uint256 i = 0; i < inputs.length; i++) {
            _receive(inputs[i], orderId, sponsor, order.fillDeadline, signatures[i]);
        }
    }

    function _receive(
        uint256[2] calldata input,
        bytes32 orderId,
        address sponsor,
        uint32 fillDeadline,
        bytes memory signature
    ) private {
        IReceiveWithAuthorization(_token(input[0])).receiveWithAuthorization(
            sponsor, address(this), input[1], 0, fillDeadline, orderId, signature
        );
    }

    function _pay(uint256[2][] calldata inputs, address to) private {
        for (uint256 i = 0; i < inputs.length; i++) {
            _token(inputs[i][0]).safeTransfer(to, inputs[i][1]);
        }
    }

    function _token(uint256 value) private pure returns (address) {
        if (value >> 160 != 0) revert InvalidInputToken();
        return address(uint160(value));
    }
}
