import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { hubOrderId, type OrderCreateAck, orderCreateAckSchema, type QuoteWinner } from "@hub/contract";
import { dataOf, disposeLaneDatabases, type LaneStack, startLaneStack } from "./lane-stack.js";
import { type LaneWallet, laneWallet } from "./lane-wallet.js";
import { countSubmissions } from "./store/submission-rows.js";

describe("POST /order with real devnet quotes through the gateway (unsigned registration allowed)", () => {
  let stack: LaneStack;

  before(async () => {
    stack = await startLaneStack({ hubConfig: { unsignedOpenFlowRegistration: true } });
  });

  after(async () => {
    await stack?.stop();
    await disposeLaneDatabases();
  });

  async function quoteOpenFlow(wallet: LaneWallet, amount: string): Promise<QuoteWinner> {
    const usdcIn = stack.origin.assets.find((a) => a.symbol === "USDC")!;
    const usdcOut = stack.destination.assets.find((a) => a.symbol === "USDC")!;
    const winner = await wallet.quote({
      sourceAsset: usdcIn.key,
      destinationAsset: usdcOut.key,
      amount,
      recipient: wallet.address,
      sourceAccount: wallet.address,
    });
    assert.equal(winner.lane, "open-flow");
    return winner;
  }

  function ordersOf(quoteId: string): Promise<number> {
    return countSubmissions(stack.db.sql, quoteId);
  }

  test("10 concurrent identical signed POST /order for one real quote make one order; every answer is its ack", async () => {
    const wallet = laneWallet(stack, stack.devnet.manifest.users[6]!, "of-race");
    const winner = await quoteOpenFlow(wallet, "1100000");
    await wallet.send(winner.executionTx!, "chain-domain");
    const body = {
      quoteId: winner.quoteId,
      artifactHash: winner.disclosure.signableHash,
      signature: await wallet.signIntent(winner),
      signer: wallet.address,
      scheme: "eip191",
    };
    const answers = await Promise.all(Array.from({ length: 10 }, () => wallet.createOrder(body)));
    const acks = answers.map((answer) => orderCreateAckSchema.parse(dataOf<OrderCreateAck>(answer)));
    for (const ack of acks) assert.deepEqual(ack, acks[0]);
    assert.equal(acks[0]?.orderId, hubOrderId(winner.quoteId));
    assert.equal(await ordersOf(winner.quoteId), 1);
  });

  test("with unsignedOpenFlowRegistration on, a registration without signature, signer and scheme is acked; a partial set is still EIN0010", async () => {
    const wallet = laneWallet(stack, stack.devnet.manifest.users[6]!, "of-unsigned");
    const winner = await quoteOpenFlow(wallet, "1200000");
    const bare = { quoteId: winner.quoteId, artifactHash: winner.disclosure.signableHash };
    const partial = await wallet.createOrder({ ...bare, scheme: "eip191" });
    assert.equal(partial.envelope.errors?.[0]?.error_code, "EIN0010", partial.text);
    assert.equal(await ordersOf(winner.quoteId), 0, "a refusal writes nothing");
    const ack = orderCreateAckSchema.parse(dataOf(await wallet.createOrder(bare)));
    assert.equal(ack.orderId, hubOrderId(winner.quoteId));
    const status = dataOf<{ state: string }>(await stack.api("GET", `/v1/status/${ack.orderId}`));
    assert.equal(status.state, "registered");
  });
});
