// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {SafeTransfer} from "./SafeTransfer.sol";

/// Open-flow lane bridge: a user deposits on the source chain; the relayer releases the same value
/// from this contract's liquidity on the destination chain, at most once per deposit id.
contract Bridge {
    using SafeTransfer for address;

    address public immutable relayer;
    uint256 public depositCount;
    mapping(bytes32 depositId => bool) public released;

    event Deposited(
        bytes32 indexed depositId,
        address indexed depositor,
        address token,
        uint256 amount,
        uint256 destinationChainId,
        address recipient,
        bytes32 ref
    );
    event Released(bytes32 indexed depositId, address token, address recipient, uint256 amount);

    error NotRelayer();
    error AlreadyReleased(bytes32 depositId);
    error ZeroAmount();
    error WrongNativeAmount(uint256 expected, uint256 sent);

    constructor(address relayer_) {
        relayer = relayer_;
    }

    receive() external payable {}

    /// token == address(0) deposits the native coin (msg.value must equal amount).
    function deposit(address token, uint256 amount, uint256 destinationChainId, address recipient, bytes32 ref)
        external
        payable
        returns (bytes32 depositId)
    {
        if (amount == 0) revert ZeroAmount();
        if (token == address(0)) {
            if (msg.value != amount) revert WrongNativeAmount(amount, msg.value);
        } else {
            if (msg.value != 0) revert WrongNativeAmount(0, msg.value);
            token.safeTransferFrom(msg.sender, address(this), amount);
        }
        depositId = keccak256(abi.encode(block.chainid, address(this), depositCount++));
        emit Deposited(depositId, msg.sender, token, amount, destinationChainId, recipient, ref);
    }

    function release(bytes32 depositId, address token, address recipient, uint256 amount) external {
        if (msg.sender != relayer) revert NotRelayer();
        if (released[depositId]) revert AlreadyReleased(depositId);
        released[depositId] = true;
        if (token == address(0)) recipient.sendNative(amount);
        else token.safeTransfer(recipient, amount);
        emit Released(depositId, token, recipient, amount);
    }

    /// Lets the relayer move its liquidity (deposits accumulate here on the source chain).
    function withdraw(address token, uint256 amount, address to) external {
        if (msg.sender != relayer) revert NotRelayer();
        if (token == address(0)) to.sendNative(amount);
        else token.safeTransfer(to, amount);
    }
}
