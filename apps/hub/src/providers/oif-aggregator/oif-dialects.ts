import type { UpstreamFailedAt, UpstreamState } from "../../status-rules/upstream-state.js";

/**
 * The two ways an OIF upstream speaks: the published specification (`@openintentsframework/oif-specs`
 * 1.0.0) and the reference aggregator (openintentsframework/oif-aggregator). A provider names its own.
 */
export const oifDialects = ["oif-spec-1", "oif-aggregator"] as const;

/** One OIF dialect. */
export type OifDialect = (typeof oifDialects)[number];

/** What a submission answer's status means to the hub. */
export type SubmissionMeaning = "accepted" | "rejected" | "error";

/** Every word a dialect spells its own way, and what each of its words means to the hub. */
export interface OifDialectTable {
  /** Prefix of `/quotes`, `/orders` and `/orders/{id}` below the provider's baseUrl. */
  pathPrefix: string;
  /** The lane's scheme as `intent.originSubmission.schemes` spells it. */
  schemes: Record<"permit2" | "eip3009", string>;
  /** Order state as the upstream reports it → the hub's upstream state. */
  orderStates: Readonly<Record<string, UpstreamState>>;
  /** Stage on the `{"failed": [stage, message]}` arm → the hub's failedAt; empty when the dialect has no arm. */
  failureStages: Readonly<Record<string, UpstreamFailedAt>>;
  /** `status` of a submission answer → what it means. */
  submissionStatuses: Readonly<Record<string, SubmissionMeaning>>;
  /** The field of an order read that holds its id. */
  orderIdField: "id" | "orderId";
  /**
   * The readiness probe: GET `path` below the baseUrl, ready while the status is below `readyBelow`
   * (a health route's 2xx, or, in a dialect that names none, any answer that is not a server error).
   */
  probe: { path: string; readyBelow: number };
}

/** The states both dialects spell alike; `failed` is where they part. */
const commonStates = {
  created: "created",
  pending: "pending",
  executing: "executing",
  executed: "executed",
  settling: "settling",
  settled: "settled",
  finalized: "finalized",
  refunded: "refunded",
} as const satisfies Record<string, UpstreamState>;

export const oifDialectTables: Readonly<Record<OifDialect, OifDialectTable>> = {
  // The specification: paths `/v1/...`, kebab-case schemes, a plain status enum with no stage and no
  // message on `failed`, submissions answered received / rejected / error, order reads keyed by `id`.
  "oif-spec-1": {
    pathPrefix: "/v1",
    schemes: { permit2: "permit2", eip3009: "eip-3009" },
    orderStates: { ...commonStates, failed: "failed" },
    failureStages: {},
    submissionStatuses: { received: "accepted", rejected: "rejected", error: "error" },
    orderIdField: "id",
    // The specification names no health route: its base URL answering at all (a 404 included) will do.
    probe: { path: "/", readyBelow: 500 },
  },
  // The reference aggregator: paths `/api/v1/...`, its serde spellings, the failed arm tagged with the
  // transaction type, an accepted submission answered with the order itself, keyed by `orderId`.
  "oif-aggregator": {
    pathPrefix: "/api/v1",
    schemes: { permit2: "permit2", eip3009: "eip3009" },
    orderStates: commonStates,
    failureStages: {
      Prepare: "Prepare",
      Fill: "Fill",
      PostFill: "PostFill",
      PreClaim: "PreClaim",
      Claim: "Claim",
    },
    // An accepted order is answered as the order the aggregator holds, in its current state (a
    // re-post of a quote it already took included); `failed` stands for the failed arm.
    submissionStatuses: Object.fromEntries(
      [...Object.keys(commonStates), "failed"].map((state) => [state, "accepted" as const]),
    ),
    orderIdField: "orderId",
    // GET /health at the root, always 200 while the aggregator serves.
    probe: { path: "/health", readyBelow: 300 },
  },
};

/**
 * An upstream order status in the hub's report form: a state of `orderStates`, or the failed arm with
 * a stage of `failureStages`. Anything else is passed on as it came, so the status rules refuse it
 * (`unknown-status`) and keep the previous view.
 */
export function reportStatusOf(dialect: OifDialect, status: unknown): unknown {
  const table = oifDialectTables[dialect];
  if (typeof status === "string")
    return Object.hasOwn(table.orderStates, status) ? table.orderStates[status] : status;
  if (typeof status !== "object" || status === null || Array.isArray(status)) return status;
  const arm = (status as { failed?: unknown }).failed;
  if (Object.keys(status).length !== 1 || !Array.isArray(arm) || arm.length !== 2) return status;
  const [stage, reason] = arm as [unknown, unknown];
  if (typeof stage !== "string" || !Object.hasOwn(table.failureStages, stage)) return status;
  return { failed: [table.failureStages[stage], reason] };
}

/** What a submission answer's `status` means: a word of the table, or (`failed`) a failed arm the dialect knows. */
export function submissionMeaningOf(dialect: OifDialect, status: unknown): SubmissionMeaning | undefined {
  const { submissionStatuses } = oifDialectTables[dialect];
  const recognisedArm = typeof status === "object" && reportStatusOf(dialect, status) !== status;
  const word = recognisedArm ? "failed" : status;
  return typeof word === "string" && Object.hasOwn(submissionStatuses, word)
    ? submissionStatuses[word]
    : undefined;
}
