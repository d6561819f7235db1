import type { HubOrderStatus, ReleaseMismatch } from "@hub/contract";
import { laneTable } from "../lanes/lane-table.js";
import {
  isOpenFlowTemplate,
  type OpenFlowDeposit,
  type OpenFlowTemplate,
} from "../providers/external-aggregator/open-flow-template.js";
import type { BridgeLogRecord, OpenFlowStore, ReleaseLogRecord } from "../store/open-flow-store.js";

/** An open-flow registration's status view, with the organization it belongs to. */
export interface OpenFlowStatus {
  organization: string;
  status: HubOrderStatus;
}

/**
 * Block times are whole seconds set by the block producer, not the hub's clock: a deposit may be
 * stamped this much before the quote's issue time and still be the quote's.
 */
export const DEPOSIT_CLOCK_SKEW_SECONDS = 60;

/** Claim attempts per read: each lost race (another order took the log) leaves one candidate fewer. */
const CLAIM_ATTEMPTS = 5;

const ERC20_ASSET = /^eip155:[0-9]+\/erc20:(0x[0-9a-fA-F]{40})$/;

/** The newest final block of a chain; undefined while none is tracked (every indexed block counts final). */
export type FinalBlockOf = (chainDomain: string) => Promise<number | undefined>;

function observedTransaction(chainDomain: string, log: BridgeLogRecord, finalBlock: number | undefined) {
  return {
    chainDomain,
    txHash: log.txHash,
    blockNumber: log.blockNumber,
    blockHash: log.blockHash,
    logIndex: log.logIndex,
    at: new Date(log.blockTimestamp * 1000).toISOString(),
    final: finalBlock === undefined || log.blockNumber <= finalBlock,
    amount: log.amount,
  };
}

/**
 * The registration's deposit: the one it claimed (read with the registration), else the first matching log no other registration
 * holds, claimed now. A claim whose log is no longer indexed (the chain's history was forgotten) is
 * replaced by the next match.
 */
async function depositOf(
  store: OpenFlowStore,
  orderId: string,
  template: OpenFlowTemplate,
  issuedAt: Date,
  at: Date,
  claimed: BridgeLogRecord | undefined,
): Promise<BridgeLogRecord | undefined> {
  const { deposit } = template;
  if (!deposit) return undefined;
  if (claimed) return claimed;
  const match = depositMatch(template, deposit, issuedAt);
  for (let attempt = 0; attempt < CLAIM_ATTEMPTS; attempt += 1) {
    // A refresh with nothing to claim stays a read; the write happens once, when a deposit appears.
    const candidate = await store.findUnclaimedDeposit(match);
    if (!candidate) return undefined;
    const claim = await store.claimDeposit(orderId, candidate, at);
    if (claim === "claimed") return candidate;
    // Not set here: a concurrent reader of this order claimed first.
    if (claim === "already-claimed") return store.readClaimedDeposit(orderId);
  }
  // Every attempt lost a race to another order: the next read tries again.
  return undefined;
}

function depositMatch(template: OpenFlowTemplate, deposit: OpenFlowDeposit, issuedAt: Date) {
  return {
    chainDomain: template.source.chainDomain,
    ref: deposit.ref.toLowerCase(),
    bridge: deposit.bridge.toLowerCase(),
    token: deposit.token.toLowerCase(),
    amount: deposit.amount,
    destinationChainId: String(deposit.destinationChainId),
    recipient: deposit.recipient.toLowerCase(),
    depositor: template.sourceAccount?.toLowerCase() ?? null,
    notBeforeSeconds: Math.floor(issuedAt.getTime() / 1000) - DEPOSIT_CLOCK_SKEW_SECONDS,
  };
}

/**
 * How a release differs from the quote: it must pay the quote's recipient the destination asset's
 * token, at least the quoted output amount. Undefined when it does not differ.
 */
function releaseMismatch(template: OpenFlowTemplate, release: ReleaseLogRecord): ReleaseMismatch | undefined {
  const token = ERC20_ASSET.exec(template.destination.asset)?.[1]?.toLowerCase();
  const fields: ReleaseMismatch["fields"] = [];
  if (release.recipient !== template.recipient.toLowerCase()) fields.push("recipient");
  if (release.token !== token) fields.push("token");
  if (BigInt(release.amount) < BigInt(template.destination.amount)) fields.push("amount");
  if (fields.length === 0) return undefined;
  return {
    fields,
    reason:
      `The release paid ${release.amount} of token ${release.token} to ${release.recipient}; the quote ` +
      `disclosed at least ${template.destination.amount} of ${token ?? template.destination.asset} to ` +
      `${template.recipient.toLowerCase()}.`,
  };
}

/**
 * Builds GET /status/{orderId} from the database: the POST /order registration, its quote's template,
 * and what the reconciler recorded. The deposit is the one the registration claimed (claimed here, at
 * `at`, on the first read that finds a match: see depositOf); the release is the first on the
 * destination chain with the deposit's id, and reads mismatched when it did not pay what the quote
 * disclosed. `final` comes only from a release in a final block of the destination (finalBlockOf): a
 * release that may still be reorganised away reads released or mismatched with final false.
 * Undefined for any id that is not an open-flow registration (openFor orders included).
 */
export async function claimAndReadOpenFlowStatus(
  store: OpenFlowStore,
  orderId: string,
  at: Date,
  finalBlockOf: FinalBlockOf = async () => undefined,
): Promise<OpenFlowStatus | undefined> {
  const registration = await store.readRegistration(orderId);
  if (!registration) return undefined;
  const createdAt = registration.submittedAt.toISOString();
  const base = {
    orderId: registration.hubOrderId,
    quoteId: registration.quoteId,
    lane: registration.lane,
    createdAt,
  };
  const { template } = registration;
  if (laneTable[registration.lane].statusView === "hub-recorded" || !isOpenFlowTemplate(template)) {
    return {
      organization: registration.organization,
      status: { ...base, state: "recorded", final: true, watermarks: [], updatedAt: createdAt },
    };
  }
  const source = template.source.chainDomain;
  const destination = template.destination.chainDomain;
  const deposit = await depositOf(
    store,
    orderId,
    template,
    registration.issuedAt,
    at,
    registration.claimedDeposit,
  );
  const release = deposit && (await store.findRelease(destination, deposit.depositId));
  const mismatch = release && releaseMismatch(template, release);
  const [watermarks, sourceFinal, destinationFinal] = await Promise.all([
    store.listObservationMarks(source === destination ? [source] : [source, destination]),
    deposit ? finalBlockOf(source) : undefined,
    release ? finalBlockOf(destination) : undefined,
  ]);
  const destinationTx = release && observedTransaction(destination, release, destinationFinal);
  // A deposit indexed before the registration arrived changed nothing after createdAt.
  const createdAtMs = Date.parse(createdAt);
  const later = (observedAt: Date) => new Date(Math.max(observedAt.getTime(), createdAtMs)).toISOString();
  const status: HubOrderStatus = release
    ? {
        ...base,
        state: mismatch ? "mismatched" : "released",
        final: destinationTx?.final === true,
        updatedAt: later(release.observedAt),
        watermarks,
      }
    : deposit
      ? { ...base, state: "deposited", final: false, updatedAt: later(deposit.observedAt), watermarks }
      : { ...base, state: "registered", final: false, updatedAt: createdAt, watermarks };
  if (deposit) {
    status.depositId = deposit.depositId;
    status.sourceTx = observedTransaction(source, deposit, sourceFinal);
  }
  if (destinationTx) status.destinationTx = destinationTx;
  if (mismatch) status.releaseMismatch = mismatch;
  return { organization: registration.organization, status };
}
