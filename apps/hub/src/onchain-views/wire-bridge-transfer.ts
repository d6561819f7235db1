import { addressToBytes32 } from "@hub/chain";
import type { OnchainFill } from "@hub/contract";
import type { ChainWatermark } from "../store/chain-facts-store.js";
import type { BridgeTransfer } from "./load-bridge-transfer.js";
import { chainEventOf, watermarkOf } from "./wire-chain-view.js";

/**
 * The fill view of a bridge transfer: OPEN once the deposit is observed, SETTLED (filled and settled)
 * once the release is, since the bridge has no step after it. The release is both the one fill and
 * settledTx; a release seen before its deposit matches no output yet (outputIndex null, inTime false).
 */
export function wireBridgeFill(transfer: BridgeTransfer, watermarks: readonly ChainWatermark[]): OnchainFill {
  const { deposit, release } = transfer;
  const domains = new Set([deposit?.chainDomain, release?.chainDomain]);
  const fill: OnchainFill = {
    orderId: transfer.depositId,
    filled: release !== undefined,
    settled: release !== undefined,
    status: release ? "SETTLED" : "OPEN",
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
