import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { type HubOrderStatus, hubOrderId, orderCreateAckSchema } from "@hub/contract";
import { pollUntil } from "@hub/test-support";
import { erc20Abi, type Hex } from "viem";
import { createChainFactsStore } from "../src/store/chain-facts-store.js";
import { dataOf, disposeLaneDatabases, type LaneStack, startLaneStack } from "./lane-stack.js";
import { laneWallet } from "./lane-wallet.js";

describe("GET /status/{orderId} on the devnet: a real Bridge.deposit followed by the reconciler", () => {
  let stack: LaneStack;

  before(async () => {
    stack = await startLaneStack();
  });

  after(async () => {
    await stack?.control("POST", "/relayer/resume").catch(() => undefined);
    await stack?.stop();
    await disposeLaneDatabases();
  });

  test("registered before the deposit, deposited once the reconciler indexes it, the watermark still on a quiet chain, released and final after the relayer's release", async () => {
    const wallet = laneWallet(stack, stack.devnet.manifest.users[5]!, "hub-status-slow");
    const usdcIn = stack.origin.assets.find((a) => a.symbol === "USDC")!;
    const usdcOut = stack.destination.assets.find((a) => a.symbol === "USDC")!;
    await stack.control("POST", "/relayer/pause");

    const winner = await wallet.quote({
      sourceAsset: usdcIn.key,
      destinationAsset: usdcOut.key,
      amount: "1750000",
      recipient: wallet.address,
      sourceAccount: wallet.address,
    });
    assert.equal(winner.lane, "open-flow");
    const ack = orderCreateAckSchema.parse(
      dataOf(
        await wallet.createOrder({
          quoteId: winner.quoteId,
          artifactHash: winner.disclosure.signableHash,
          signature: await wallet.signIntent(winner),
          signer: wallet.address,
          scheme: "eip191",
        }),
      ),
    );
    assert.equal(ack.orderId, hubOrderId(winner.quoteId));
    const path = `/v1/status/${ack.orderId}`;
    const registered = dataOf<HubOrderStatus>(await stack.api("GET", path));
    assert.equal(registered.state, "registered", "nothing sent yet");
    assert.equal(registered.final, false);
    assert.equal(registered.sourceTx, undefined);

    const sent = await wallet.send(winner.executionTx!, "chain-domain");
    const deposit = sent.find((s) => s.kind === "step")!;
    const deposited = await wallet.follow<HubOrderStatus>(
      path,
      (read) => read.state !== "registered",
      30_000,
    );
    assert.equal(deposited.state, "deposited", "the relayer is paused: no release yet");
    assert.equal(deposited.sourceTx?.txHash, deposit.hash);
    assert.equal(deposited.sourceTx?.chainDomain, stack.origin.chainDomain);
    assert.equal(deposited.sourceTx?.amount, "1750000");
    assert.ok(deposited.depositId);
    const sourceMark = deposited.watermarks.find((w) => w.chainDomain === stack.origin.chainDomain);
    assert.ok(sourceMark, "the source chain's watermark is shown once it recorded the deposit");
    assert.ok(sourceMark.blockNumber >= deposited.sourceTx!.blockNumber);

    // A block with no bridge or settler log: the reconciler indexes past it, the view's watermark stays.
    const origin = stack.chains.get(stack.origin.chainId);
    const quiet = await origin.wallet(stack.devnet.manifest.users[5]!).writeContract({
      address: usdcIn.address as Hex,
      abi: erc20Abi,
      functionName: "approve",
      args: [wallet.address, 1n],
    });
    const quietBlock = Number(
      (await origin.publicClient.waitForTransactionReceipt({ hash: quiet })).blockNumber,
    );
    await pollUntil(
      "the reconciler indexes the quiet block",
      async () => {
        const watermark = await createChainFactsStore(stack.db.sql).getWatermark(stack.origin.chainDomain);
        return watermark && watermark.lastBlock >= quietBlock ? watermark : undefined;
      },
      { timeoutMs: 30_000, intervalMs: 200 },
    );
    stack.hubClock.skewMs += 2_100;
    const stillQuiet = dataOf<HubOrderStatus>(await stack.api("GET", path));
    assert.equal(stillQuiet.state, "deposited");
    assert.deepEqual(
      stillQuiet.watermarks.find((w) => w.chainDomain === stack.origin.chainDomain),
      sourceMark,
      "on a quiet chain the view's watermark does not move",
    );

    await stack.control("POST", "/relayer/resume");
    const released = await wallet.follow<HubOrderStatus>(path, (read) => read.final, 30_000);
    assert.equal(released.state, "released");
    assert.equal(released.depositId, deposited.depositId);
    assert.deepEqual(released.sourceTx, deposited.sourceTx);
    assert.equal(released.destinationTx?.chainDomain, stack.destination.chainDomain);
    assert.equal(released.destinationTx?.amount, winner.output.amount);
    const destinationMark = released.watermarks.find((w) => w.chainDomain === stack.destination.chainDomain);
    assert.ok(destinationMark && destinationMark.blockNumber >= released.destinationTx!.blockNumber);

    const otherSubject = await stack.api("GET", path, { subject: "someone-else" });
    assert.equal(dataOf<HubOrderStatus>(otherSubject).state, "released", "not scoped by subject");
  });
});
