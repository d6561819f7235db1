import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import {
  type CatalogChain,
  type OnchainFill,
  type OnchainTxOrder,
  type OpenForAck,
  type OrdersList,
  openForAckSchema,
  type UpstreamOrderStatus,
} from "@hub/contract";
import { erc20Abi, type Hex, parseEther } from "viem";
import { oifDialects } from "../src/providers/oif-aggregator/oif-dialects.js";
import { dataOf, disposeLaneDatabases, type LaneStack, startLaneStack } from "./lane-stack.js";
import { type LaneWallet, laneWallet, reportLaneTiming } from "./lane-wallet.js";

const FINAL_UPSTREAM_STATES = new Set(["finalized", "failed", "refunded"]);

for (const dialect of oifDialects) {
  describe(`the proxy lanes end to end: a wallet through the gateway on the devnet (upstream dialect ${dialect})`, () => {
    let stack: LaneStack;

    before(async () => {
      stack = await startLaneStack({ dialect });
    });

    after(async () => {
      await stack?.stop();
      await disposeLaneDatabases();
    });

    async function balanceOn(chain: CatalogChain, token: Hex, account: Hex): Promise<bigint> {
      return stack.chains.get(chain.chainId).publicClient.readContract({
        address: token,
        abi: erc20Abi,
        functionName: "balanceOf",
        args: [account],
      });
    }

    /** Registers, follows the upstream view to its stop set, then the on-chain views to settled. */
    async function registerAndFollow(
      wallet: LaneWallet,
      lane: string,
      quotedAtMs: number,
      winner: Parameters<LaneWallet["openFor"]>[0],
      stepHash: Hex,
    ): Promise<{ ack: OpenForAck; status: UpstreamOrderStatus }> {
      const ack = openForAckSchema.parse(dataOf(await wallet.openFor(winner)));
      assert.equal(ack.orderId, winner.onchainOrderId, "the ack carries the disclosed on-chain id");
      assert.equal(ack.quoteId, winner.quoteId);
      assert.equal(ack.state, "created");

      const status = await wallet.follow<UpstreamOrderStatus>(`/v1/order/${ack.hubOrderId}/status`, (read) =>
        FINAL_UPSTREAM_STATES.has(read.state),
      );
      reportLaneTiming(lane, quotedAtMs);
      assert.equal(status.state, "finalized", JSON.stringify(status));
      assert.equal(status.stateSource, "upstream-advisory");
      assert.equal(status.finalityVerified, false);
      assert.equal(status.history[0]?.state, "created");
      assert.equal(status.history.at(-1)?.state, "finalized");

      const byTx = await wallet.follow<OnchainTxOrder>(
        `/v1/onchain/tx/${stack.origin.chainDomain}/${stepHash}/order`,
        (read) => read.orderId !== null,
        15_000,
      );
      assert.equal(byTx.orderId, winner.onchainOrderId, "the step's transaction resolves to the order");
      assert.equal(byTx.event, "open");
      const fill = await wallet.follow<OnchainFill>(
        `/v1/onchain/${winner.onchainOrderId}/fill`,
        (read) => read.settled,
        30_000,
      );
      assert.equal(fill.filled, true);
      assert.equal(fill.status, "SETTLED");
      assert.equal(fill.openTx?.txHash, stepHash);

      const listed = dataOf<OrdersList>(await stack.api("GET", "/v1/orders", { subject: wallet.subject }));
      assert.equal(listed.subject, wallet.subject);
      assert.equal(listed.orders.length, 1);
      assert.equal(listed.orders[0]?.orderId, ack.hubOrderId);
      assert.equal(listed.orders[0]?.onchainOrderId, winner.onchainOrderId);
      assert.equal(listed.orders[0]?.onchainOrderIdSource, "verified");
      return { ack, status };
    }

    test("oif-wrap-native: the wallet sends the one wrapAndOpen step with the amount as value, registers without signature, and the order walks to finalized upstream and settled on chain, paying the recipient the quoted output", async () => {
      const account = stack.devnet.manifest.users[2]!;
      const wallet = laneWallet(stack, account, "lane-wrap-native");
      const wrappedOut = stack.destination.assets.find((a) => a.key === stack.destination.wrappedKey)!;
      const before = await balanceOn(stack.destination, wrappedOut.address as Hex, wallet.address);
      const amount = parseEther("0.3");

      const quotedAtMs = performance.now();
      const winner = await wallet.quote({
        sourceAsset: stack.origin.nativeKey,
        destinationAsset: stack.destination.wrappedKey,
        amount: amount.toString(),
        recipient: wallet.address,
        sourceAccount: wallet.address,
      });
      assert.equal(winner.lane, "oif-wrap-native");
      assert.equal(winner.signPayload, undefined, "nothing to sign");
      assert.equal(winner.signIntent, undefined);
      const tx = winner.executionTx!;
      assert.deepEqual(tx.approvals, [], "nothing to approve");
      assert.equal(tx.steps.length, 1);
      assert.equal(tx.steps[0]!.value, amount.toString(), "the step's value is the amount");

      const sent = await wallet.send(tx, "integer");
      assert.deepEqual(
        sent.map((s) => [s.kind, s.chainId]),
        [["step", stack.origin.chainId]],
      );
      await registerAndFollow(wallet, "oif-wrap-native", quotedAtMs, winner, sent[0]!.hash);
      assert.equal(
        (await balanceOn(stack.destination, wrappedOut.address as Hex, wallet.address)) - before,
        BigInt(winner.output.amount),
        "the recipient got the quoted output",
      );
    });

    test("oif-swap-token: the wallet sends one approval of amountMax then the swapAndOpenV2 step with value 0, registers without signature, and the order walks to finalized upstream and settled on chain, paying amountMax and receiving the quoted output", async () => {
      const account = stack.devnet.manifest.users[3]!;
      const wallet = laneWallet(stack, account, "lane-swap-token");
      const undeclared = stack.devnet.manifest.chains[0]!.contracts.undeclaredToken.toLowerCase() as Hex;
      const usdcOut = stack.destination.assets.find((a) => a.symbol === "USDC")!;
      const paidBefore = await balanceOn(stack.origin, undeclared, wallet.address);
      const receivedBefore = await balanceOn(stack.destination, usdcOut.address as Hex, wallet.address);

      const quotedAtMs = performance.now();
      const winner = await wallet.quote({
        sourceAsset: `${stack.origin.chainDomain}/erc20:${undeclared}`,
        destinationAsset: usdcOut.key,
        amount: parseEther("40").toString(),
        recipient: wallet.address,
        sourceAccount: wallet.address,
      });
      assert.equal(winner.lane, "oif-swap-token");
      assert.equal(winner.signPayload, undefined);
      const tx = winner.executionTx!;
      assert.equal(tx.approvals.length, 1);
      assert.equal(tx.approvals[0]!.amount, winner.swapInput!.amountMax);
      assert.equal(tx.steps.length, 1);
      assert.equal(tx.steps[0]!.value, "0");

      const sent = await wallet.send(tx, "integer");
      assert.deepEqual(
        sent.map((s) => [s.kind, s.chainId]),
        [
          ["approval", stack.origin.chainId],
          ["step", stack.origin.chainId],
        ],
      );
      await registerAndFollow(wallet, "oif-swap-token", quotedAtMs, winner, sent[1]!.hash);
      assert.equal(
        paidBefore - (await balanceOn(stack.origin, undeclared, wallet.address)),
        BigInt(winner.swapInput!.amountMax),
        "the wallet paid amountMax",
      );
      assert.equal(
        (await balanceOn(stack.destination, usdcOut.address as Hex, wallet.address)) - receivedBefore,
        BigInt(winner.output.amount),
        "the recipient got the quoted output",
      );
    });
  });
}
