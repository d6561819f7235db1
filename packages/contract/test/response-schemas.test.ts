import assert from "node:assert/strict";
import { test } from "node:test";
import type { z } from "zod";
import {
  hubOrderId,
  hubOrderStatusSchema,
  onchainFillSchema,
  onchainOrderSchema,
  onchainRefundSchema,
  onchainTxOrderSchema,
  openForAckSchema,
  orderCreateAckSchema,
  ordersListSchema,
  preparedQuoteSchema,
  quotePreviewSchema,
  quoteWinnerSchema,
  signableHash,
  upstreamOrderStatusSchema,
} from "../src/index.js";

const AT = "2026-01-02T03:04:05.678Z";
const H32 = `0x${"1".repeat(64)}`;
const ADDR = `0x${"a".repeat(40)}`;
const event = { chainDomain: "eip155:31337", txHash: H32, blockNumber: 12, at: AT };
const watermark = { chainDomain: "eip155:31337", blockNumber: 12, observedAt: AT };
const terms = {
  provider: "oif-solver",
  lane: "oif-wrap-native",
  executionClass: "OIF_ESCROW",
  input: { asset: "eip155:31337/slip44:60", amount: "1000" },
  output: { asset: "eip155:31338/erc20:0xbbbb", amount: "990" },
  swapType: "exact-input",
};
const executionTx = {
  approvals: [],
  steps: [{ chainId: 31337, to: ADDR, data: "0xabcdef", value: "1000", description: "wrapAndOpen" }],
};
const typedData = {
  domain: { name: "Permit2" },
  types: { A: [{ name: "a", type: "uint256" }] },
  primaryType: "A",
  message: {},
};
/** A winner of `lane` carrying `members` (its payload), with the disclosure that lane's hub writes. */
function winnerOf(lane: string, members: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  const { signPayload, executionTx } = members;
  const signablePayload = {
    kind: lane,
    ...(signPayload ? { signPayload } : {}),
    ...(executionTx ? { executionTx } : {}),
    terms,
  };
  return {
    quoteRequestId: "qr_r1_x",
    quoteId: "q_r1_y",
    expiresAt: AT,
    ...terms,
    lane,
    recipient: ADDR,
    disclosure: { signablePayload, signableHash: signableHash(signablePayload) },
    ...members,
    ...extra,
  };
}
const winner = winnerOf("oif-wrap-native", { executionTx });
const upstream = {
  orderId: hubOrderId("q_r1_y"),
  quoteId: "q_r1_y",
  state: "executed",
  stateSource: "upstream-advisory",
  finalityVerified: false,
  upstreamFillReported: false,
  history: [{ state: "created", at: AT }],
  rejectedUpstreamTransition: false,
  upstreamStale: false,
  updatedAt: AT,
};
const fill = { ...event, amount: "990", recipient: H32, solver: H32, outputIndex: 0, inTime: true };
const entry = {
  orderId: hubOrderId("q_r1_y"),
  quoteId: "q_r1_y",
  lane: "oif-escrow-gasless",
  onchainOrderId: H32,
  onchainOrderIdSource: "upstream",
  submittedAt: AT,
  state: "created",
  inputs: [{ chainDomain: "eip155:31337", asset: "eip155:31337/erc20:0xaaaa", amount: "1000" }],
  chain: { status: "OPEN", openTx: event, fills: [] },
};
const standardOrder = {
  user: ADDR,
  nonce: "1",
  originChainId: "31337",
  expires: "1800000000",
  fillDeadline: "1799999000",
  inputOracle: ADDR,
  inputs: [["123", "1000"]],
  outputs: [
    {
      oracle: H32,
      settler: H32,
      chainId: "31338",
      token: H32,
      amount: "990",
      recipient: H32,
      callbackData: "0x",
      context: "0x",
    },
  ],
};

function accepts(schema: z.ZodType, value: unknown): void {
  const result = schema.safeParse(value);
  assert.ok(result.success, result.success ? "" : JSON.stringify(result.error.issues));
}

const validRows: Array<[string, z.ZodType, unknown]> = [
  ["a proxy-lane winner with an integer chainId", quoteWinnerSchema, winner],
  [
    "an open-flow winner with a chain-domain chainId and signIntent",
    quoteWinnerSchema,
    winnerOf(
      "open-flow",
      {
        executionTx: {
          approvals: [{ chainId: "eip155:1", token: ADDR, spender: ADDR, amount: "5" }],
          steps: [],
        },
      },
      { signIntent: "I accept quote q_r1_y" },
    ),
  ],
  [
    "a Permit2 winner with typed data and no executionTx",
    quoteWinnerSchema,
    winnerOf("oif-escrow-gasless", { signPayload: typedData }),
  ],
  [
    "an EIP-3009 winner wrapped as {chainId, payload}",
    quoteWinnerSchema,
    winnerOf("aggregator-gasless", { signPayload: { chainId: 1, payload: typedData } }),
  ],
  [
    "a Solana winner with transactionMessage, digest, sender, feePayer",
    quoteWinnerSchema,
    winnerOf("oif-escrow-nonevm", {
      signPayload: { transactionMessage: "AQID", digest: "d", sender: "s", feePayer: "f" },
    }),
  ],
  [
    "a solver-swap winner with neither signPayload nor executionTx",
    quoteWinnerSchema,
    winnerOf("solver-swap", {}, { executionClass: "INFINITY_SOLVER" }),
  ],
  [
    "a token-in winner with swapInput",
    quoteWinnerSchema,
    winnerOf("oif-swap-token", { executionTx }, { swapInput: { amountIn: "10", amountMax: "11" } }),
  ],
  ["a prepared quote echoing preparationId", preparedQuoteSchema, { ...winner, preparationId: "p-1" }],
  [
    "a preview with offers",
    quotePreviewSchema,
    { quoteRequestId: "qr", offers: [{ ...terms, etaSeconds: 30 }] },
  ],
  [
    "an openFor ack in state created",
    openForAckSchema,
    { orderId: H32, hubOrderId: hubOrderId("q"), quoteId: "q", state: "created", submittedAt: AT },
  ],
  ["an OrderCreateAck", orderCreateAckSchema, { orderId: "o", quoteId: "q", createdAt: AT }],
  ["an upstream status", upstreamOrderStatusSchema, upstream],
  [
    "an upstream status on the failure arm",
    upstreamOrderStatusSchema,
    { ...upstream, state: "failed", failedAt: "PostFill", failureReason: "x" },
  ],
  [
    "an orders page with a next cursor",
    ordersListSchema,
    { subject: "user-1", orders: [entry], nextCursor: "c" },
  ],
  ["the last orders page", ordersListSchema, { subject: "canary-1", orders: [], nextCursor: null }],
  [
    "an entry without chain facts yet",
    ordersListSchema,
    { subject: "s", orders: [{ ...entry, chain: undefined }], nextCursor: null },
  ],
  [
    "a hub status released",
    hubOrderStatusSchema,
    {
      orderId: "o",
      quoteId: "q",
      lane: "open-flow",
      state: "released",
      final: true,
      depositId: H32,
      sourceTx: event,
      destinationTx: { ...event, amount: "9" },
      watermarks: [watermark],
      createdAt: AT,
      updatedAt: AT,
    },
  ],
  [
    "a fill view filled and settled",
    onchainFillSchema,
    {
      orderId: H32,
      filled: true,
      settled: true,
      status: "SETTLED",
      fills: [fill],
      settledTx: event,
      watermarks: [watermark],
    },
  ],
  [
    "a fill view for an unknown id",
    onchainFillSchema,
    { orderId: "0xABC", filled: false, settled: false, status: null, fills: [], watermarks: [] },
  ],
  [
    "a transaction resolved to its order",
    onchainTxOrderSchema,
    { chainDomain: "eip155:31337", txHash: H32, orderId: H32, event: "open", watermark },
  ],
  [
    "a transaction not resolved",
    onchainTxOrderSchema,
    { chainDomain: "eip155:31337", txHash: "0xAB", orderId: null, event: null, watermark },
  ],
  [
    "a refundable order with its step",
    onchainRefundSchema,
    {
      orderId: H32,
      refundable: true,
      reason: "refundable",
      expiresAt: AT,
      step: { chainId: 31337, to: ADDR, data: "0x12", value: "0" },
    },
  ],
  [
    "a raw order tuple",
    onchainOrderSchema,
    { orderId: H32, chainDomain: "eip155:31337", settler: ADDR, order: standardOrder, openTx: event },
  ],
];

for (const [rule, schema, value] of validRows) {
  test(`the contract accepts ${rule}`, () => accepts(schema, value));
}

const invalidRows: Array<[string, z.ZodType, unknown]> = [
  [
    "a timestamp that is no real date (30 February)",
    quoteWinnerSchema,
    { ...winner, expiresAt: "2026-02-30T00:00:00.000Z" },
  ],
  [
    "a winner carrying both signPayload and executionTx",
    quoteWinnerSchema,
    { ...winner, signPayload: typedData },
  ],
  [
    "a winner whose signablePayload.kind names no lane",
    quoteWinnerSchema,
    { ...winner, disclosure: { signablePayload: { kind: "x" }, signableHash: H32 } },
  ],
  [
    "a step whose chainId is neither an integer nor a chain domain",
    quoteWinnerSchema,
    { ...winner, executionTx: { approvals: [], steps: [{ ...executionTx.steps[0], chainId: "31337" }] } },
  ],
  [
    "an amount that is not a decimal string",
    quoteWinnerSchema,
    { ...winner, input: { asset: "eip155:1/slip44:60", amount: 5 } },
  ],
  ["a timestamp without milliseconds", quoteWinnerSchema, { ...winner, expiresAt: "2026-01-02T03:04:05Z" }],
  [
    "stateSource other than upstream-advisory",
    upstreamOrderStatusSchema,
    { ...upstream, stateSource: "chain" },
  ],
  ["finalityVerified true", upstreamOrderStatusSchema, { ...upstream, finalityVerified: true }],
  [
    "an upstream state outside the spec's list",
    upstreamOrderStatusSchema,
    { ...upstream, state: "postFilled" },
  ],
  [
    "a failedAt outside Prepare, Fill, PostFill, PreClaim, Claim",
    upstreamOrderStatusSchema,
    { ...upstream, state: "failed", failedAt: "Approval" },
  ],
  [
    "a chain.status outside the spec's list",
    ordersListSchema,
    { subject: "s", orders: [{ ...entry, chain: { status: "FINALISED", fills: [] } }], nextCursor: null },
  ],
  [
    "an onchainOrderIdSource other than upstream or verified",
    ordersListSchema,
    { subject: "s", orders: [{ ...entry, onchainOrderIdSource: "guess" }], nextCursor: null },
  ],
  [
    "an input carrying recipient",
    ordersListSchema,
    {
      subject: "s",
      orders: [{ ...entry, inputs: [{ ...entry.inputs[0], recipient: ADDR }] }],
      nextCursor: null,
    },
  ],
  [
    "an input carrying fillTxHash",
    ordersListSchema,
    {
      subject: "s",
      orders: [{ ...entry, inputs: [{ ...entry.inputs[0], fillTxHash: H32 }] }],
      nextCursor: null,
    },
  ],
  [
    "an input carrying paidAmount",
    ordersListSchema,
    {
      subject: "s",
      orders: [{ ...entry, inputs: [{ ...entry.inputs[0], paidAmount: "1" }] }],
      nextCursor: null,
    },
  ],
  ["an orders page without nextCursor", ordersListSchema, { subject: "s", orders: [] }],
  [
    "a hub status state outside its list",
    hubOrderStatusSchema,
    {
      orderId: "o",
      quoteId: "q",
      lane: "open-flow",
      state: "done",
      final: true,
      watermarks: [],
      createdAt: AT,
      updatedAt: AT,
    },
  ],
  [
    "a raw order with a numeric field",
    onchainOrderSchema,
    {
      orderId: H32,
      chainDomain: "eip155:31337",
      settler: ADDR,
      order: { ...standardOrder, expires: 1800000000 },
      openTx: event,
    },
  ],
];

for (const [rule, schema, value] of invalidRows) {
  test(`the contract refuses ${rule}`, () => {
    assert.equal(schema.safeParse(value).success, false);
  });
}
