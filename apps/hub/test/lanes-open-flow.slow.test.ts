import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import {
  type HubOrderStatus,
  hubOrderId,
  type OnchainFill,
  onchainFillSchema,
  onchainTxOrderSchema,
  orderCreateAckSchema,
} from "@hub/contract";
import { erc20Abi, type Hex } from "viem";
import { dataOf, disposeLaneDatabases, type LaneStack, startLaneStack } from "./lane-stack.js";
import { laneWallet, reportLaneTiming } from "./lane-wallet.js";

describe("the open flow end to end: a wallet through the gateway on the devnet", () => {
  let stack: LaneStack;

  before(async () => {
    stack = await startLaneStack();
  });

  after(async () => {
    await stack?.stop();
    await disposeLaneDatabases();
  });

  test("open flow: the wallet sends the approval and the bridge deposit on the chain-domain chain, personal_signs signIntent, registers with POST /order, GET /status/{orderId} walks to released with the deposit and the payout the recipient received, and the on-chain views follow the deposit tx to its depositId and the fill view to settled", async () => {
    const wallet = laneWallet(stack, stack.devnet.manifest.users[4]!, "lane-open-flow");
    const usdcIn = stack.origin.assets.find((a) => a.symbol === "USDC")!;
    const usdcOut = stack.destination.assets.find((a) => a.symbol === "USDC")!;
    const balanceOut = () =>
      stack.chains.get(stack.destination.chainId).publicClient.readContract({
        address: usdcOut.address as Hex,
        abi: erc20Abi,
        functionName: "balanceOf",
        args: [wallet.address],
      });
    const before = await balanceOut();

    const quotedAtMs = performance.now();
    const winner = await wallet.quote({
      sourceAsset: usdcIn.key,
      destinationAsset: usdcOut.key,
      amount: "2500000",
      recipient: wallet.address,
      sourceAccount: wallet.address,
    });
    assert.equal(winner.lane, "open-flow");
    assert.equal(winner.disclosure.signablePayload.kind, "open-flow");
    assert.equal(winner.signPayload, undefined);
    assert.ok(winner.signIntent, "the open flow asks for a signature of signIntent");
    const tx = winner.executionTx!;
    for (const item of [...tx.approvals, ...tx.steps]) {
      assert.equal(item.chainId, stack.origin.chainDomain, "a chain-domain string on the open flow");
    }

    const sent = await wallet.send(tx, "chain-domain");
    assert.deepEqual(
      sent.map((s) => [s.kind, s.chainId]),
      [
        ["approval", stack.origin.chainId],
        ["step", stack.origin.chainId],
      ],
    );
    const deposit = sent[1]!;
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
    assert.equal(ack.quoteId, winner.quoteId);

    const status = await wallet.follow<HubOrderStatus>(`/v1/status/${ack.orderId}`, (read) => read.final);
    reportLaneTiming("open-flow", quotedAtMs);
    assert.equal(status.state, "released", JSON.stringify(status));
    assert.equal(status.lane, "open-flow");
    assert.ok(status.depositId, "the bridge's deposit id");
    assert.equal(status.orderId, ack.orderId);
    assert.equal(status.createdAt, ack.createdAt);
    assert.equal(status.sourceTx?.txHash, deposit.hash, "the wallet's deposit is the source transaction");
    assert.equal(status.sourceTx?.chainDomain, stack.origin.chainDomain);
    assert.equal(status.destinationTx?.chainDomain, stack.destination.chainDomain);
    assert.equal(status.destinationTx?.amount, winner.output.amount);
    assert.equal((await balanceOut()) - before, BigInt(winner.output.amount), "the recipient got the output");

    // The on-chain views follow the same transfer by its depositId: the deposit tx names it, and the
    // fill view ends settled at the release (the bridge has no later step).
    const byTx = onchainTxOrderSchema.parse(
      dataOf(await stack.api("GET", `/v1/onchain/tx/${deposit.chainDomain}/${deposit.hash}/order`)),
    );
    assert.equal(byTx.chainDomain, deposit.chainDomain);
    assert.equal(byTx.orderId, status.depositId, "the deposit transaction names the bridge's deposit id");
    assert.equal(byTx.event, "deposit");
    assert.ok(
      byTx.watermark.blockNumber >= status.sourceTx!.blockNumber,
      "the chain was read past the deposit",
    );
    const fill = onchainFillSchema.parse(
      await wallet.follow<OnchainFill>(`/v1/onchain/${byTx.orderId}/fill`, (read) => read.settled, 15_000),
    );
    assert.deepEqual([fill.status, fill.filled, fill.settled], ["SETTLED", true, true]);
    assert.equal(fill.openTx?.txHash, deposit.hash);
    assert.equal(fill.openTx?.chainDomain, stack.origin.chainDomain);
    assert.equal(fill.fills.length, 1);
    assert.equal(fill.fills[0]?.txHash, status.destinationTx?.txHash, "the release is the one fill");
    assert.equal(fill.fills[0]?.chainDomain, stack.destination.chainDomain);
    assert.equal(fill.fills[0]?.amount, winner.output.amount);
    assert.equal(fill.fills[0]?.recipient, `0x${wallet.address.slice(2).padStart(64, "0")}`);
    assert.equal(fill.settledTx?.txHash, status.destinationTx?.txHash);
    assert.deepEqual(
      fill.watermarks.map((w) => w.chainDomain).sort(),
      [stack.origin.chainDomain, stack.destination.chainDomain].sort(),
    );
    const release = onchainTxOrderSchema.parse(
      dataOf(
        await stack.api(
          "GET",
          `/v1/onchain/tx/${stack.destination.chainDomain}/${status.destinationTx!.txHash}/order`,
        ),
      ),
    );
    assert.deepEqual([release.orderId, release.event], [status.depositId, "release"]);
  });
});
