import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { OnchainFill } from "@hub/contract";
import { type Hex, parseEther } from "viem";
import { dataOf, disposeLaneDatabases, type LaneStack, startLaneStack } from "./lane-stack.js";
import { laneWallet } from "./lane-wallet.js";

// The devnet's control API reorganises the destination chain under a settled order, re-including its
// fill in a new block: the hub's on-chain view, read through the gateway, follows the fill to its new
// block and stays settled. The whole stack: devnet, reconciler, store, gateway.
describe("a control-API reorganisation that re-includes a fill, seen through the hub", () => {
  let stack: LaneStack;

  before(async () => {
    stack = await startLaneStack();
  });
  after(async () => {
    await stack?.stop();
    await disposeLaneDatabases();
  });

  test("the fill view reports the fill's new block, still filled and settled", async () => {
    const wallet = laneWallet(stack, stack.devnet.manifest.users[5]!, "control-reorg");
    const winner = await wallet.quote({
      sourceAsset: stack.origin.nativeKey,
      destinationAsset: stack.destination.wrappedKey,
      amount: parseEther("0.2").toString(),
      recipient: wallet.address,
      sourceAccount: wallet.address,
    });
    assert.equal(winner.lane, "oif-wrap-native");
    await wallet.send(winner.executionTx!, "integer");
    dataOf(await wallet.openFor(winner));
    const path = `/v1/onchain/${winner.onchainOrderId}/fill`;
    const settled = await wallet.follow<OnchainFill>(path, (read) => read.settled, 60_000);
    const fill = settled.fills[0]!;
    assert.equal(settled.status, "SETTLED");

    const destination = stack.chains.get(stack.destination.chainId).publicClient;
    const receipt = await destination.getTransactionReceipt({ hash: fill.txHash as Hex });
    const head = await destination.getBlockNumber();
    const depth = Number(head - receipt.blockNumber) + 1;
    const reorg = (await stack.control("POST", `/chains/${stack.destination.chainDomain}/reorg`, {
      depth,
      reinclude: true,
    })) as { reincluded: string[] };
    assert.ok(reorg.reincluded.includes(fill.txHash), "the fill is mined again");
    const moved = await destination.getTransactionReceipt({ hash: fill.txHash as Hex });
    assert.notEqual(moved.blockHash, fill.blockHash, "in a block with a new hash");
    // Blocks on top, so the new one is final at any depth the devnet's chains use.
    await stack.control("POST", `/chains/${stack.destination.chainDomain}/mine`, { blocks: 3 });

    const after = await wallet.follow<OnchainFill>(
      path,
      (read) => read.fills[0]?.blockHash === moved.blockHash && read.settled,
      30_000,
    );
    assert.equal(after.fills.length, 1);
    assert.equal(after.fills[0]?.txHash, fill.txHash);
    assert.equal(after.filled, true);
    assert.equal(after.status, "SETTLED");
  });
});
