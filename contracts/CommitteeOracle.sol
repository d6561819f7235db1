// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {IInputOracle} from "./Interfaces.sol";

/// Devnet attestation oracle: a fixed committee signs (EIP-712) that a fill happened on another chain;
/// with threshold distinct member signatures anyone may record the attestation, which the escrow reads.
contract CommitteeOracle is IInputOracle {
    bytes32 constant DOMAIN_TYPEHASH =
        keccak256("EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)");
    bytes32 public constant ATTESTATION_TYPEHASH = keccak256(
        "Attestation(uint256 remoteChainId,bytes32 remoteOracle,bytes32 application,bytes32 payloadHash)"
    );
    bytes32 constant SECP256K1_HALF_ORDER = 0x7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a0;

    uint256 public immutable threshold;
    mapping(address => bool) public isMember;
    address[] private _members;

    mapping(uint256 => mapping(bytes32 => mapping(bytes32 => mapping(bytes32 => bool)))) private _attestations;

    event OutputProven(uint256 chainid, bytes32 remoteIdentifier, bytes32 application, bytes32 payloadHash);

    error InvalidCommittee();
    error NotMember(address signer);
    error DuplicateSigner(address signer);
    error BelowThreshold(uint256 signatures, uint256 threshold);
    error InvalidSignature();
    error NotProven();
    error InvalidProofSeries();

    constructor(address[] memory members, uint256 threshold_) {
        if (threshold_ == 0 || threshold_ > members.length) revert InvalidCommittee();
        for (uint256 i = 0; i < members.length; i++) {
            if (members[i] == address(0) || isMember[members[i]]) revert InvalidCommittee();
            isMember[members[i]] = true;
        }
        _members = members;
        threshold = threshold_;
    }

    function members() external view returns (address[] memory) {
        return _members;
    }

    function domainSeparator() public view returns (bytes32) {
        return keccak256(
            abi.encode(
                DOMAIN_TYPEHASH, keccak256("CommitteeOracle"), keccak256("1"), block.chainid, address(this)
            )
        );
    }

    function attestationDigest(uint256 remoteChainId, bytes32 remoteOracle, bytes32 application, bytes32 payloadHash)
        public
        view
        returns (bytes32)
    {
        bytes32 structHash =
            keccak256(abi.encode(ATTESTATION_TYPEHASH, remoteChainId, remoteOracle, application, payloadHash));
        return keccak256(abi.encodePacked("\x19\x01", domainSeparator(), structHash));
    }

    /// Records the attestation once threshold distinct members signed it; a repeat is a no-op.
    function submitAttestation(
        uint256 remoteChainId,
        bytes32 remoteOracle,
        bytes32 application,
        bytes32 payloadHash,
        bytes[] calldata signatures
    ) external {
        if (_attestations[remoteChainId][remoteOracle][application][payloadHash]) return;
        bytes32 digest = attestationDigest(remoteChainId, remoteOracle, application, payloadHash);
        address[] memory seen = new address[](signatures.length);
        uint256 valid = 0;
        for (uint256 i = 0; i < signatures.length; i++) {
            address signer = _recover(digest, signatures[i]);
            if (!isMember[signer]) revert NotMember(signer);
            for (uint256 j = 0; j < valid; j++) {
                if (seen[j] == signer) revert DuplicateSigner(signer);
            }
            seen[valid++] = signer;
        }
        if (valid < threshold) revert BelowThreshold(valid, threshold);
        _attestations[remoteChainId][remoteOracle][application][payloadHash] = true;
        emit OutputProven(remoteChainId, remoteOracle, application, payloadHash);
    }

    function isProven(uint256 remoteChainId, bytes32 remoteOracle, bytes32 application, bytes32 dataHash)
        external
        view
        returns (bool)
    {
        return _attestations[remoteChainId][remoteOracle][application][dataHash];
    }

    function efficientRequireProven(bytes calldata proofSeries) external view {
        if (proofSeries.length == 0 || proofSeries.length % 128 != 0) revert InvalidProofSeries();
        for (uint256 offset = 0; offset < proofSeries.length; offset += 128) {
            uint256 remoteChainId = uint256(bytes32(proofSeries[offset:offset + 32]));
            bytes32 remoteOracle = bytes32(proofSeries[offset + 32:offset + 64]);
            bytes32 application = bytes32(proofSeries[offset + 64:offset + 96]);
            bytes32 payloadHash = bytes32(proofSeries[offset + 96:offset + 128]);
            if (!_attestations[remoteChainId][remoteOracle][application][payloadHash]) revert NotProven();
        }
    }

    function _recover(bytes32 digest, bytes calldata signature) private pure returns (address signer) {
        if (signature.length != 65) revert InvalidSignature();
        bytes32 r = bytes32(signature[0:32]);
        bytes32 s = bytes32(signature[32:64]);
        uint8 v = uint8(signature[64]);
        if (uint256(s) > uint256(SECP256K1_HALF_ORDER)) revert InvalidSignature();
        signer = ecrecover(digest, v, r, s);
        if (signer == address(0)) revert InvalidSignature();
    }
}
