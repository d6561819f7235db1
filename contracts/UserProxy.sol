// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {IERC20, IWrappedNative} from "./Interfaces.sol";
import {InputSettlerEscrow} from "./InputSettlerEscrow.sol";
import {StandardOrder} from "./OrderTypes.sol";
import {SafeTransfer} from "./SafeTransfer.sol";
import {SwapRouter} from "./SwapRouter.sol";

/// Opens escrow orders in one user transaction for sources the escrow cannot take directly:
/// the native coin (wrapped first) and an undeclared token (swapped first). The proxy is only the
/// opener: order.user receives refunds and any swap surplus; the proxy keeps nothing.
contract UserProxy {
    using SafeTransfer for address;

    InputSettlerEscrow public immutable escrow;
    address public immutable wrappedNative;
    SwapRouter public immutable swapRouter;

    error SingleInputRequired();
    error InputNotWrappedNative(address token);
    error ValueNotInputAmount(uint256 value, uint256 amount);

    constructor(InputSettlerEscrow escrow_, address wrappedNative_, SwapRouter swapRouter_) {
        escrow = escrow_;
        wrappedNative = wrappedNative_;
        swapRouter = swapRouter_;
    }

    /// Wraps msg.value (which must equal the order's single input, in the wrapped native) and opens the order.
    function wrapAndOpen(StandardOrder calldata order) external payable returns (bytes32 orderId) {
        (address token, uint256 amount) = _singleInput(order);
        if (token != wrappedNative) revert InputNotWrappedNative(token);
        if (msg.value != amount) revert ValueNotInputAmount(msg.value, amount);
        IWrappedNative(wrappedNative).deposit{value: msg.value}();
        return _open(order, token, amount);
    }

    /// Pulls amountMax of tokenIn from the caller, swaps all of it into the order's input token (it must
    /// yield at least the input amount), sends any surplus to order.user, and opens the order.
    function swapAndOpenV2(address tokenIn, uint256 amountMax, StandardOrder calldata order)
        external
        returns (bytes32 orderId)
    {
        (address token, uint256 amount) = _singleInput(order);
        tokenIn.safeTransferFrom(msg.sender, address(this), amountMax);
        tokenIn.safeApprove(address(swapRouter), amountMax);
        uint256 received = swapRouter.swapExactInput(tokenIn, token, amountMax, amount, address(this));
        if (received > amount) token.safeTransfer(order.user, received - amount);
        return _open(order, token, amount);
    }

    function _open(StandardOrder calldata order, address token, uint256 amount) private returns (bytes32 orderId) {
        token.safeApprove(address(escrow), amount);
        escrow.open(order);
        return escrow.orderIdentifier(order);
    }

    function _singleInput(StandardOrder calldata order) private pure returns (address token, uint256 amount) {
        if (order.inputs.length != 1) revert SingleInputRequired();
        return (address(uint160(order.inputs[0][0])), order.inputs[0][1]);
    }
}
