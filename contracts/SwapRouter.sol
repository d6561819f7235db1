// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {SafeTransfer} from "./SafeTransfer.sol";

/// Devnet swap router with one fixed-rate pool tokenIn -> tokenOut: amountOut = amountIn * rateNumerator / rateDenominator.
/// The pool pays out of its own balance, funded at deploy.
contract SwapRouter {
    using SafeTransfer for address;

    address public immutable tokenIn;
    address public immutable tokenOut;
    uint256 public immutable rateNumerator;
    uint256 public immutable rateDenominator;

    event Swapped(address indexed sender, address tokenIn, address tokenOut, uint256 amountIn, uint256 amountOut, address recipient);

    error UnknownPool(address tokenIn, address tokenOut);
    error InsufficientOutput(uint256 amountOut, uint256 minAmountOut);
    error InvalidRate();

    constructor(address tokenIn_, address tokenOut_, uint256 rateNumerator_, uint256 rateDenominator_) {
        if (rateNumerator_ == 0 || rateDenominator_ == 0) revert InvalidRate();
        tokenIn = tokenIn_;
        tokenOut = tokenOut_;
        rateNumerator = rateNumerator_;
        rateDenominator = rateDenominator_;
    }

    /// What swapping amountIn yields (rounded down).
    function quoteExactInput(address from, address to, uint256 amountIn) public view returns (uint256 amountOut) {
        _requirePool(from, to);
        return amountIn * rateNumerator / rateDenominator;
    }

    /// The smallest amountIn that yields at least amountOut (rounded up).
    function quoteExactOutput(address from, address to, uint256 amountOut) external view returns (uint256 amountIn) {
        _requirePool(from, to);
        return (amountOut * rateDenominator + rateNumerator - 1) / rateNumerator;
    }

    function swapExactInput(address from, address to, uint256 amountIn, uint256 minAmountOut, address recipient)
        external
        returns (uint256 amountOut)
    {
        amountOut = quoteExactInput(from, to, amountIn);
        if (amountOut < minAmountOut) revert InsufficientOutput(amountOut, minAmountOut);
        from.safeTransferFrom(msg.sender, address(this), amountIn);
        to.safeTransfer(recipient, amountOut);
        emit Swapped(msg.sender, from, to, amountIn, amountOut, recipient);
    }

    function _requirePool(address from, address to) private view {
        if (from != tokenIn || to != tokenOut) revert UnknownPool(from, to);
    }
}
