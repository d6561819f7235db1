import { type Attestation, attestationForOutputFilled } from "@hub/chain";
import type { CommitteeState } from "./committee-state.js";

/** Adds the fills every chain's output settler (and the Solana stand-in) shows since the last look. */
export async function readFills(state: CommitteeState): Promise<void> {
  const { cursors, fills, clock, log, solanaFills } = state;
  for (const [chainId, cursor] of cursors) {
    for (const event of await cursor.next()) {
      const key = `${chainId}:${event.transactionHash}:${event.logIndex}`;
      if (fills.has(key)) continue;
      const { orderId, solver, timestamp } = event.args;
      let attestation: Attestation;
      try {
        attestation = attestationForOutputFilled(event);
      } catch (error) {
        log.warn({ err: error, orderId, chainId }, "fill not attestable");
        continue;
      }
      const nowMs = clock.now();
      fills.set(key, {
        fillChainId: chainId,
        orderId,
        solver,
        fillTimestamp: Number(timestamp),
        fillTxHash: event.transactionHash,
        remoteOracle: attestation.remoteOracle,
        application: attestation.application,
        payloadHash: attestation.payloadHash,
        attestation,
        output: event.args.output,
        observedAt: new Date(nowMs).toISOString(),
        observedAtMs: nowMs,
        state: "waiting",
      });
      log.debug({ orderId, chainId }, "fill observed");
    }
  }
  for (const fill of (await solanaFills?.next()) ?? []) {
    const key = `solana:${fill.signature}`;
    if (fills.has(key)) continue;
    const nowMs = clock.now();
    fills.set(key, {
      fillChainId: fill.attestation.remoteChainId.toString(),
      orderId: fill.orderId,
      solver: fill.solver,
      fillTimestamp: fill.fillTimestamp,
      fillTxHash: fill.signature,
      remoteOracle: fill.attestation.remoteOracle,
      application: fill.attestation.application,
      payloadHash: fill.attestation.payloadHash,
      attestation: fill.attestation,
      originChainId: fill.originChainId,
      observedAt: new Date(nowMs).toISOString(),
      observedAtMs: nowMs,
      state: "waiting",
    });
    log.debug({ orderId: fill.orderId, signature: fill.signature }, "solana fill observed");
  }
}
