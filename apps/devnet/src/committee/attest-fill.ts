import { committeeOracleAbi, inputSettlerEscrowAbi, signAttestation, submitAttestation } from "@hub/chain";
import type { CommitteeState } from "./committee-state.js";
import type { TrackedFill } from "./observed-fill.js";
import { releaseOnSolana } from "./release-on-solana.js";

async function findOrigin({ clients }: CommitteeState, orderId: `0x${string}`): Promise<number | undefined> {
  for (const client of clients.all()) {
    const status = await client.publicClient.readContract({
      address: client.chain.contracts.inputSettlerEscrow,
      abi: inputSettlerEscrowAbi,
      functionName: "orderStatus",
      args: [orderId],
    });
    if (Number(status) !== 0) return client.chain.chainId;
  }
  return undefined;
}

/**
 * Attests a fill on its order's origin chain, unless the oracle holds it already. Answers `rejected`
 * when the fill is refused for good (its lastError says why).
 */
export async function attestFill(state: CommitteeState, fill: TrackedFill): Promise<"rejected" | undefined> {
  const { clients, manifest, submitter, log } = state;
  fill.originChainId ??= await findOrigin(state, fill.orderId);
  if (fill.originChainId === undefined && state.solanaRelease?.knows(fill.orderId))
    return releaseOnSolana(state, fill, state.solanaRelease);
  // A fill seen before its Open (or of an order never opened here) waits until the Open appears.
  if (fill.originChainId === undefined) return;
  const origin = clients.get(fill.originChainId);
  const oracle = origin.chain.contracts.committeeOracle;
  const { attestation } = fill;
  const proven = await origin.publicClient.readContract({
    address: oracle,
    abi: committeeOracleAbi,
    functionName: "isProven",
    args: [
      attestation.remoteChainId,
      attestation.remoteOracle,
      attestation.application,
      attestation.payloadHash,
    ],
  });
  if (!proven) {
    const signatures = await Promise.all(
      manifest.committee.members.map((member) =>
        signAttestation({
          privateKey: member.privateKey,
          chainId: origin.chain.chainId,
          oracle,
          attestation,
        }),
      ),
    );
    const hash = await submitAttestation(origin.wallet(submitter), {
      oracle,
      attestation,
      signatures: signatures.slice(0, manifest.committee.threshold),
    });
    const receipt = await origin.publicClient.waitForTransactionReceipt({ hash, pollingInterval: 50 });
    if (receipt.status !== "success") throw new Error(`attestation of ${fill.orderId} reverted in ${hash}`);
    fill.attestationTxHash = hash;
    log.info({ orderId: fill.orderId, originChainId: fill.originChainId, hash }, "fill attested");
  }
  fill.state = "proven";
}
