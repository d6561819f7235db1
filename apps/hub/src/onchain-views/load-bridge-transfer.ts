import type {
  BridgeDepositLog,
  BridgeReleaseLog,
  ChainFactsStore,
  ChainWatermark,
} from "../store/chain-facts-store.js";

/** An open-flow bridge transfer as indexed: its deposit, its release, or both (at least one). */
export interface BridgeTransfer {
  depositId: string;
  deposit?: BridgeDepositLog;
  release?: BridgeReleaseLog;
}

/**
 * The bridge transfer a depositId names, from the indexed Deposited and Released logs; undefined when
 * neither is indexed. The depositId hashes the source chain id and the bridge address, so it names one
 * deposit; its release counts only on the chain the deposit names as destination (any chain while the
 * deposit is not indexed). Exact match: an uppercase or 0x-less id finds nothing.
 */
export async function loadBridgeTransfer(
  store: ChainFactsStore,
  depositId: string,
  watermarks: readonly ChainWatermark[],
): Promise<BridgeTransfer | undefined> {
  const { deposit, releases } = await store.findBridgeLogs(depositId);
  const destinations = deposit
    ? new Set(
        watermarks
          .filter((watermark) => String(watermark.chainId) === deposit.destinationChainId)
          .map((watermark) => watermark.chainDomain),
      )
    : undefined;
  const release = releases.find((log) => !destinations || destinations.has(log.chainDomain));
  if (!deposit && !release) return undefined;
  const transfer: BridgeTransfer = { depositId };
  if (deposit) transfer.deposit = deposit;
  if (release) transfer.release = release;
  return transfer;
}
