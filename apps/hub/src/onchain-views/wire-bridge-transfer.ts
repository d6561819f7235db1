import { addressToBytes32 } from "@hub/chain";
import type { OnchainFill } from "@hub/contract";
import type { ChainLogRef } from "../status-rules/chain-facts.js";
import type { ChainWatermark } from "../store/chain-facts-store.js";
import type { BridgeTransfer } from "./load-bridge-transfer.js";
import { chainEventOf, watermarkOf } from "./wire-chain-view.js";

/** Whether a log's block is final: at or below its chain's final block (every block while none is tracked). */
function finalIn<T extends ChainLogRef>(ref: T, watermarks: readonly ChainWatermark[]): T {
  const finalBlock = watermarks.find((watermark) => watermark.chainDomain === ref.chainDomain)?.finalBlock;
  return { ...ref, final: finalBlock === undefined || ref.blockNumber <= finalBlock };
}

/**
 * The fill view of a bridge transfer: OPEN once the deposit is observed, SETTLED (filled and settled)
 * once the release is in a final block, since the bridge has no step after it. The release is both the
 * one fill and settledTx; while its block is not final it fills (FILLED, or AWAITING_OPEN before the
 * deposit) and settles nothing. A release seen before its deposit matches no output yet (outputIndex
 * null, inTime false).
 */
export function wireBridgeFill(transfer: BridgeTransfer, watermarks: readonly ChainWatermark[]): OnchainFill {
  const deposit = transfer.deposit && finalIn(transfer.deposit, watermarks);
  const release = transfer.release && finalIn(transfer.release, watermarks);
  const domains = new Set([deposit?.chainDomain, release?.chainDomain]);
  const settled = release?.final === true;
  const fill: OnchainFill = {
    orderId: transfer.depositId,
    filled: release !== undefined,
    settled,
    status: settled ? "SETTLED" : release ? (deposit ? "FILLED" : "AWAITING_OPEN") : "OPEN",
    fills: release
      ? [
          {
            ...chainEventOf(release),
            amount: release.amount,
            recipient: addressToBytes32(release.recipient as `0x${string}`),
            solver: addressToBytes32(release.bridge as `0x${string}`),
            outputIndex: deposit ? 0 : null,
            inTime: deposit !== undefined,
          },
        ]
      : [],
    watermarks: watermarks
      .filter(
        (watermark) =>
          domains.has(watermark.chainDomain) || String(watermark.chainId) === deposit?.destinationChainId,
      )
      .map(watermarkOf),
  };
  if (deposit) fill.openTx = chainEventOf(deposit);
  if (release) fill.settledTx = chainEventOf(release);
  return fill;
}
