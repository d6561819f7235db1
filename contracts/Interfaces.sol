// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

interface IERC20 {
    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);

    function totalSupply() external view returns (uint256);
    function balanceOf(address account) external view returns (uint256);
    function allowance(address owner, address spender) external view returns (uint256);
    function approve(address spender, uint256 value) external returns (bool);
    function transfer(address to, uint256 value) external returns (bool);
    function transferFrom(address from, address to, uint256 value) external returns (bool);
}

/// The part of the canonical Permit2 SignatureTransfer the escrow uses.
interface IPermit2 {
    struct TokenPermissions {
        address token;
        uint256 amount;
    }

    struct PermitBatchTransferFrom {
        TokenPermissions[] permitted;
        uint256 nonce;
        uint256 deadline;
    }

    struct SignatureTransferDetails {
        address to;
        uint256 requestedAmount;
    }

    function permitWitnessTransferFrom(
        PermitBatchTransferFrom calldata permit,
        SignatureTransferDetails[] calldata transferDetails,
        address owner,
        bytes32 witness,
        string calldata witnessTypeString,
        bytes calldata signature
    ) external;
}

interface IReceiveWithAuthorization {
    function receiveWithAuthorization(
        address from,
        address to,
        uint256 value,
        uint256 validAfter,
        uint256 validBefore,
        bytes32 nonce,
        bytes calldata signature
    ) external;
}

interface IInputOracle {
    function isProven(uint256 remoteChainId, bytes32 remoteOracle, bytes32 application, bytes32 dataHash)
        external
        view
        returns (bool);

    /// Reverts unless every 128-byte chunk (chainId, oracle, application, payloadHash) is proven.
    function efficientRequireProven(bytes calldata proofSeries) external view;
}

interface IOutputCallback {
    function outputFilled(bytes32 token, uint256 amount, bytes calldata executionData) external;
}

interface IInputCallback {
    function orderFinalised(uint256[2][] calldata inputs, bytes calldata executionData) external;
}

interface IWrappedNative {
    function deposit() external payable;
    function withdraw(uint256 amount) external;
}
