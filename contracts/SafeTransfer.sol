// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

/// Token transfers that accept tokens returning nothing and revert on any failure.
library SafeTransfer {
    error TransferFailed(address token);
    error NativeTransferFailed(address to);

    function safeTransfer(address token, address to, uint256 amount) internal {
        _call(token, abi.encodeWithSignature("transfer(address,uint256)", to, amount));
    }

    function safeTransferFrom(address token, address from, address to, uint256 amount) internal {
        _call(token, abi.encodeWithSignature("transferFrom(address,address,uint256)", from, to, amount));
    }

    function safeApprove(address token, address spender, uint256 amount) internal {
        _call(token, abi.encodeWithSignature("approve(address,uint256)", spender, amount));
    }

    function sendNative(address to, uint256 amount) internal {
        (bool ok,) = to.call{value: amount}("");
        if (!ok) revert NativeTransferFailed(to);
    }

    function _call(address token, bytes memory data) private {
        if (token.code.length == 0) revert TransferFailed(token);
        (bool ok, bytes memory ret) = token.call(data);
        if (!ok || (ret.length != 0 && !abi.decode(ret, (bool)))) revert TransferFailed(token);
    }
}
