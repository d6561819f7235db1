import assert from "node:assert/strict";
import { test } from "node:test";
import { createHubClient, hubOrderIdOf, type SubmitStep, type Winner } from "../src/index.js";
import { submitThroughLostOpenForAnswer } from "./lost-openfor-answer.js";
import { recordingWallet } from "./recording-wallet.js";
import { fail, ok, rejection, scriptedServer } from "./scripted-server.js";

const KEY = `svc_sk_${"b".repeat(43)}`;
const SPENDER = `0x${"cd".repeat(20)}`;
const TOKEN = `0x${"ef".repeat(20)}`;
const typed = {
  domain: { name: "Permit2", chainId: 31337, verifyingContract: `0x${"22".repeat(20)}` },
  types: {
    EIP712Domain: [
      { name: "name", type: "string" },
      { name: "chainId", type: "uint256" },
      { name: "verifyingContract", type: "address" },
    ],
    Note: [{ name: "amount", type: "uint256" }],
  },
  primaryType: "Note",
  message: { amount: "5" },
};

function winner(lane: string, extra: Record<string, unknown> = {}): Winner {
  return {
    quoteRequestId: "qr_r1_x",
    quoteId: `q_r1_${lane}`,
    lane,
    disclosure: { signablePayload: { kind: lane }, signableHash: `0x${"ab".repeat(32)}` },
    ...extra,
  } as unknown as Winner;
}

const ack = (w: Winner, hubOrderId: string) =>
  ok({ orderId: `0x${"99".repeat(32)}`, hubOrderId, quoteId: w.quoteId, state: "created", submittedAt: "t" });

test("Permit2: one typed-data signature prefixed 0x00; EIP-3009: the inner payload's raw signature", async () => {
  const permit2 = winner("oif-escrow-gasless", { signPayload: typed });
  const eip3009 = winner("aggregator-gasless", { signPayload: { chainId: 31337, payload: typed } });
  const server = await scriptedServer([() => ack(permit2, "h1"), () => ack(eip3009, "h2")]);
  try {
    const client = createHubClient({ baseUrl: server.baseUrl, apiKey: KEY, subject: "s" });
    const { wallet, typedData } = recordingWallet();
    const steps: SubmitStep[] = [];
    const order = await client.submit(permit2, wallet, { onStep: (s) => steps.push(s) });
    assert.equal(order.kind, "openfor");
    assert.deepEqual(
      steps.map((s) => s.step),
      ["signed", "acked"],
    );
    const first = JSON.parse(server.received[0]!.body);
    assert.deepEqual(Object.keys(first), ["quoteRequestId", "quoteId", "signature"]);
    assert.match(first.signature, /^0x00[0-9a-f]{130}$/, "scheme byte 0x00 then 65 bytes");
    await client.submit(eip3009, wallet);
    assert.match(JSON.parse(server.received[1]!.body).signature, /^0x[0-9a-f]{130}$/, "raw 65 bytes");
    assert.equal(typedData.length, 2);
    assert.deepEqual(typedData[1], typed, "the inner payload of {chainId, payload}");
    assert.deepEqual(server.calls(), ["POST /order/openfor", "POST /order/openfor"]);
  } finally {
    await server.close();
  }
});

test("a lost openFor answer: read the order by hubOrderId (once more on not-found), then re-post the identical body; one signature", async () => {
  const w = winner("oif-escrow-gasless", { signPayload: typed });
  const { wallet, typedData } = recordingWallet();
  await submitThroughLostOpenForAnswer(w, wallet, (id) => ack(w, id));
  assert.equal(typedData.length, 1, "never a second signature");
});

test("EIN0052 stops at once: no re-post, no second signature, no re-quote", async () => {
  const w = winner("oif-escrow-gasless", { signPayload: typed });
  const server = await scriptedServer([() => fail("EIN0052")]);
  try {
    const client = createHubClient({ baseUrl: server.baseUrl, apiKey: KEY, subject: "s" });
    const { wallet, typedData } = recordingWallet();
    const error = await rejection(client.submit(w, wallet));
    assert.deepEqual([error.code, error.block], ["EIN0052", "availability"]);
    assert.deepEqual(server.calls(), ["POST /order/openfor"]);
    assert.equal(typedData.length, 1);
  } finally {
    await server.close();
  }
});

test("proxy lanes: approvals then steps, each mined, then openFor without signature; an error after a send names the transactions", async () => {
  const executionTx = {
    approvals: [{ chainId: 31337, token: TOKEN, spender: SPENDER, amount: "1000" }],
    steps: [{ chainId: 31337, to: SPENDER, data: "0x1234", value: "0", description: "swapAndOpenV2" }],
  };
  const w = winner("oif-swap-token", { executionTx });
  const server = await scriptedServer([
    () => ack(w, "h"),
    () => fail("EIN0007", { message: "upstream refused" }),
  ]);
  try {
    const client = createHubClient({ baseUrl: server.baseUrl, apiKey: KEY, subject: "s" });
    const { wallet, transactions, typedData } = recordingWallet();
    const steps: SubmitStep[] = [];
    await client.submit(w, wallet, { onStep: (s) => steps.push(s) });
    assert.deepEqual(
      steps.map((s) => s.step),
      ["sent", "mined", "sent", "mined", "acked"],
    );
    assert.deepEqual(transactions[0], {
      chainId: 31337,
      to: TOKEN,
      data: `0x095ea7b3${SPENDER.slice(2).padStart(64, "0")}${(1000).toString(16).padStart(64, "0")}`,
      value: 0n,
    });
    assert.deepEqual(transactions[1], { chainId: 31337, to: SPENDER, data: "0x1234", value: 0n });
    assert.deepEqual(Object.keys(JSON.parse(server.received[0]!.body)), ["quoteRequestId", "quoteId"]);
    assert.equal(typedData.length, 0);

    const error = await rejection(client.submit(w, recordingWallet().wallet));
    assert.equal(error.code, "EIN0007");
    assert.deepEqual(
      error.sent.map((t) => t.kind),
      ["approval", "step"],
      "the caller learns not to re-quote",
    );

    const reverted = await rejection(client.submit(w, recordingWallet({ reverts: true }).wallet));
    assert.equal(reverted.code, "ESDK_TX_REVERTED");
    const refusing = recordingWallet().wallet;
    let sends = 0;
    refusing.sendTransaction = async () => {
      if (++sends === 2) throw new Error("user rejected the request");
      return `0x${"01".repeat(32)}`;
    };
    const rejected = await rejection(client.submit(w, refusing));
    assert.deepEqual([rejected.code, rejected.block], ["ESDK_WALLET", "terminal"]);
    assert.match(rejected.message, /user rejected/);
    assert.deepEqual(
      rejected.sent.map((t) => t.kind),
      ["approval"],
      "the approval went out before the refusal",
    );
    assert.equal(server.received.length, 2, "nothing registered after a revert");
  } finally {
    await server.close();
  }
});

test("open flow: send executionTx on the chain its domain names, personal_sign signIntent, POST /order; a lost answer re-posts the same signed body", async () => {
  const executionTx = {
    approvals: [{ chainId: "eip155:31338", token: TOKEN, spender: SPENDER, amount: "7" }],
    steps: [{ chainId: "eip155:31338", to: SPENDER, data: "0xdead", value: "0", description: "deposit" }],
  };
  const w = winner("open-flow", { executionTx, signIntent: "I intend to bridge" });
  const id = await hubOrderIdOf(w.quoteId);
  const server = await scriptedServer([
    () => ({ delayMs: 400, json: { success: true, data: {} } }),
    () => ok({ state: "registered" }),
    () => ok({ orderId: id, quoteId: w.quoteId, createdAt: "t" }),
  ]);
  try {
    const client = createHubClient({
      baseUrl: server.baseUrl,
      apiKey: KEY,
      subject: "s",
      timeouts: { quoteMs: 200, otherMs: 200 },
      retry: { baseDelayMs: 10 },
    });
    const { wallet, transactions, messages } = recordingWallet();
    const order = await client.submit(w, wallet);
    assert.deepEqual(order.kind === "open-flow" && [order.orderId, order.sent.length], [id, 2]);
    assert.deepEqual(
      transactions.map((t) => t.chainId),
      [31338, 31338],
    );
    assert.deepEqual(messages, ["I intend to bridge"], "signed once, verbatim");
    assert.deepEqual(server.calls(), ["POST /order", `GET /status/${id}`, "POST /order"]);
    const body = JSON.parse(server.received[0]!.body);
    assert.deepEqual(Object.keys(body), ["quoteId", "artifactHash", "signature", "signer", "scheme"]);
    assert.equal(body.artifactHash, w.disclosure.signableHash);
    assert.equal(body.signer, wallet.address);
    assert.equal(body.scheme, "eip191");
    assert.equal(server.received[2]!.body, server.received[0]!.body);
  } finally {
    await server.close();
  }
});

test("refusals before anything is sent: open flow without signIntent, a Solana winner with an EVM wallet, solver-swap", async () => {
  const { wallet, transactions } = recordingWallet();
  const client = createHubClient({ baseUrl: "http://127.0.0.1:9/v1", apiKey: KEY, subject: "s" });
  const tx = {
    approvals: [],
    steps: [{ chainId: "eip155:1", to: SPENDER, data: "0x", value: "0", description: "d" }],
  };
  assert.equal(
    (await rejection(client.submit(winner("open-flow", { executionTx: tx }), wallet))).code,
    "ESDK_NO_SIGN_INTENT",
  );
  assert.equal(
    (await rejection(client.submit(winner("oif-escrow-nonevm"), wallet))).code,
    "ESDK_WALLET_FAMILY",
  );
  assert.equal((await rejection(client.submit(winner("solver-swap"), wallet))).code, "ESDK_NOT_COMPLETABLE");
  assert.equal(transactions.length, 0);
});
