// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {DevnetERC20} from "./DevnetERC20.sol";
import {SafeTransfer} from "./SafeTransfer.sol";

/// The wrapped native coin: deposit mints one for one, withdraw burns and sends the coin back.
contract WrappedNative is DevnetERC20 {
    using SafeTransfer for address;

    event Deposit(address indexed account, uint256 amount);
    event Withdrawal(address indexed account, uint256 amount);

    constructor() DevnetERC20("Wrapped Ether", "WETH", 18) {}

    error MintDisabled();

    /// Only deposits create wrapped coins, so every one stays backed.
    function mint(address, uint256) external pure override {
        revert MintDisabled();
    }

    receive() external payable {
        deposit();
    }

    function deposit() public payable {
        totalSupply += msg.value;
        balanceOf[msg.sender] += msg.value;
        emit Transfer(address(0), msg.sender, msg.value);
        emit Deposit(msg.sender, msg.value);
    }

    function withdraw(uint256 amount) external {
        if (balanceOf[msg.sender] < amount) revert InsufficientBalance();
        balanceOf[msg.sender] -= amount;
        totalSupply -= amount;
        emit Transfer(msg.sender, address(0), amount);
        emit Withdrawal(msg.sender, amount);
        msg.sender.sendNative(amount);
    }
}
