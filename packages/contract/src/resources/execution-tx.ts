import { z } from "zod";
import { accountSchema, baseUnitsSchema, chainDomainSchema, hexDataSchema } from "./wire-scalars.js";

/** A chain as executionTx names it: an EVM chain id on the proxy lanes, a CAIP-2 chain domain on the external lane. */
export const executionChainSchema = z.union([z.number().int().positive(), chainDomainSchema]).meta({
  id: "ExecutionChain",
  description:
    "An integer EVM chain id on the hub's proxy lanes; a CAIP-2 chain-domain string on the external aggregator lane (open flow).",
});

/** One token approval the user sends before the steps. */
export const approvalSchema = z
  .object({
    chainId: executionChainSchema,
    token: accountSchema.describe("Token contract to call approve on."),
    spender: accountSchema.describe("The address to approve."),
    amount: baseUnitsSchema.describe("Allowance to grant, base units."),
  })
  .meta({ id: "Approval" });

/** One transaction the user sends, in order. */
export const executionStepSchema = z
  .object({
    chainId: executionChainSchema,
    to: accountSchema,
    data: hexDataSchema.describe("Calldata, 0x hex."),
    value: baseUnitsSchema.describe("Native value in wei as a decimal string; `0` when none."),
    description: z.string().describe("What the step does, for display (e.g. `wrapAndOpen`)."),
  })
  .meta({ id: "ExecutionStep" });

/** The transactions the user sends itself: approvals first, then steps in order. */
export const executionTxSchema = z
  .object({
    approvals: z.array(approvalSchema),
    steps: z.array(executionStepSchema),
  })
  .meta({
    id: "ExecutionTx",
    description:
      "Transactions the user or wallet sends itself (the service never sends any): approvals first, then steps in order. oif-wrap-native: no approval and one `wrapAndOpen(order)` step to the catalog's userProxy whose value is the amount in wei (input.amount). oif-swap-token: one approval of swapInput.amountMax of the source token to the userProxy, then one `swapAndOpenV2(token, amountMax, order)` step to it with value `0`. On both, the order's user is the paying account and the step opens the disclosed onchainOrderId; then POST /order/openfor without signature, before expiresAt. open-flow: the external aggregator's transactions exactly as it sent them, chainId the source chain's domain string: one approval of input.amount of the source token to the chain's bridge (the catalog's `bridge`), then one `deposit(token, amount, destinationChainId, recipient, ref)` step to it with value `0`; send them from sourceAccount, then personal_sign signIntent and POST /order.",
  });

/** executionTx as the wire carries it. */
export type ExecutionTx = z.output<typeof executionTxSchema>;
