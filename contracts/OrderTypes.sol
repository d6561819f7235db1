// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

/// One output of an order, as the public OIF MandateOutput: every address is a bytes32 so non-EVM
/// chains fit; token == 0 means the chain's native coin.
struct MandateOutput {
    bytes32 oracle;
    bytes32 settler;
    uint256 chainId;
    bytes32 token;
    uint256 amount;
    bytes32 recipient;
    bytes callbackData;
    bytes context;
}

/// The public OIF StandardOrder. inputs[i] = [uint256(uint160(token)), amount].
struct StandardOrder {
    address user;
    uint256 nonce;
    uint256 originChainId;
    uint32 expires;
    uint32 fillDeadline;
    address inputOracle;
    uint256[2][] inputs;
    MandateOutput[] outputs;
}

/// Who filled an output and when, one per output, given to finalise.
struct SolveParams {
    uint32 timestamp;
    bytes32 solver;
}
