import { z } from "zod";

/**
 * The lanes a winner can take; `disclosure.signablePayload.kind` names one. The spec names the lanes
 * and the kind `solver-swap`; `transfer` and `open-flow` complete the set (a decision of the contract).
 */
export const laneSchema = z
  .enum([
    "oif-escrow-gasless",
    "aggregator-gasless",
    "oif-escrow-nonevm",
    "oif-wrap-native",
    "oif-swap-token",
    "open-flow",
    "solver-swap",
    "transfer",
  ])
  .meta({
    id: "Lane",
    description:
      "What the user does. Signature lanes (`oif-escrow-gasless`, `aggregator-gasless`, `oif-escrow-nonevm`): sign signPayload, then POST /order/openfor with signature. Proxy lanes (`oif-wrap-native`, `oif-swap-token`): send executionTx, then POST /order/openfor without signature. `open-flow`: send executionTx, personal_sign signIntent, POST /order. `solver-swap` and `transfer` winners disclose neither signPayload nor executionTx and are not completable.",
  });

/** One lane name. */
export type Lane = z.output<typeof laneSchema>;
