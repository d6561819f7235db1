import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import {
  hubOrderId,
  type OnchainFill,
  type OnchainTxOrder,
  type OrdersList,
  openForAckSchema,
  type QuoteWinner,
} from "@hub/contract";
import { type Hex, parseEther } from "viem";
import { dataOf, disposeLaneDatabases, type LaneStack, refusalOf, startLaneStack } from "./lane-stack.js";
import { type LaneWallet, laneWallet } from "./lane-wallet.js";

/** Past the 30 s quote lifetime, well inside the 20-minute proxy-lane hold. */
const PAST_EXPIRY_MS = 45_000;

describe("refusals of the submission routes, through the gateway on the devnet", () => {
  let stack: LaneStack;
  let subjects = 0;

  before(async () => {
    stack = await startLaneStack();
  });

  after(async () => {
    await stack?.stop();
    await disposeLaneDatabases();
  });

  function wallet(userIndex: number): LaneWallet {
    return laneWallet(stack, stack.devnet.manifest.users[userIndex]!, `refusals-${++subjects}`);
  }

  function wrapNative(payer: LaneWallet, amount = parseEther("0.05")): Promise<QuoteWinner> {
    return payer.quote({
      sourceAsset: stack.origin.nativeKey,
      destinationAsset: stack.destination.wrappedKey,
      amount: amount.toString(),
      recipient: payer.address,
      sourceAccount: payer.address,
    });
  }

  function permit2Lane(payer: LaneWallet): Promise<QuoteWinner> {
    const tkn = (chain: typeof stack.origin) => chain.assets.find((a) => a.symbol === "TKN")!.key;
    return payer.quote({
      sourceAsset: tkn(stack.origin),
      destinationAsset: tkn(stack.destination),
      amount: "1000000000000000000",
      recipient: payer.address,
      sourceAccount: payer.address,
    });
  }

  describe("POST /order/openfor", () => {
    test("a proxy-lane registration after expiresAt is EIN0007 (upstream QUOTE_EXPIRED); the deposit is still filled by the solver and followed by the tx-to-order and fill views, never by the status routes", async () => {
      const payer = wallet(1);
      const winner = await wrapNative(payer);
      assert.equal(winner.lane, "oif-wrap-native");
      const [step] = await payer.send(winner.executionTx!, "integer");

      // The devnet's off-chain clock only moves forward: later quotes are issued on it and stay valid.
      const clock = (await stack.control("POST", "/clock/advance", { ms: PAST_EXPIRY_MS })) as {
        nowMs: number;
      };
      assert.ok(clock.nowMs > Date.parse(winner.expiresAt), "the aggregator sees the quote expired");
      const refusal = refusalOf(await payer.openFor(winner));
      assert.equal(refusal.code, "EIN0007");
      const [row] = await stack.db.sql.query<{ state: string; last_detail: string }>(
        "SELECT state, last_detail FROM submissions WHERE quote_id = $1",
        [winner.quoteId],
      );
      assert.equal(row?.state, "refused");
      assert.match(row?.last_detail ?? "", /400 QUOTE_EXPIRED/);

      const byTx = await payer.follow<OnchainTxOrder>(
        `/v1/onchain/tx/${step!.chainDomain}/${step!.hash}/order`,
        (read) => read.orderId !== null,
        15_000,
      );
      assert.equal(byTx.orderId, winner.onchainOrderId, "the deposit's transaction resolves to its order");
      assert.equal(byTx.event, "open");
      const fill = await payer.follow<OnchainFill>(
        `/v1/onchain/${byTx.orderId}/fill`,
        (read) => read.settled,
        45_000,
      );
      assert.equal(fill.filled, true, "the solver filled the unregistered deposit");

      const status = refusalOf(
        await stack.api("GET", `/v1/order/${hubOrderId(winner.quoteId)}/status`, { subject: payer.subject }),
      );
      assert.equal(status.code, "EIN0009", "the refused order is not recorded");
      const listed = dataOf<OrdersList>(await stack.api("GET", "/v1/orders", { subject: payer.subject }));
      assert.deepEqual(listed.orders, []);
    });

    test("a proxy-lane registration without a deposit is acked all the same", async () => {
      const payer = wallet(2);
      const winner = await wrapNative(payer);
      const escrowStatus = await stack.chains.get(stack.origin.chainId).publicClient.readContract({
        address: stack.origin.inputSettlers.escrow as Hex,
        abi: [
          {
            type: "function",
            name: "orderStatus",
            stateMutability: "view",
            inputs: [{ name: "orderId", type: "bytes32" }],
            outputs: [{ name: "", type: "uint8" }],
          },
        ],
        functionName: "orderStatus",
        args: [winner.onchainOrderId as Hex],
      });
      assert.equal(escrowStatus, 0, "nothing deposited");
      const ack = openForAckSchema.parse(dataOf(await payer.openFor(winner)));
      assert.equal(ack.orderId, winner.onchainOrderId);
      assert.equal(ack.hubOrderId, hubOrderId(winner.quoteId));
      assert.equal(ack.state, "created");
    });
  });

  describe("POST /order", () => {
    test("an unknown quote is EIN0010", async () => {
      const payer = wallet(4);
      const refusal = refusalOf(
        await payer.createOrder({
          quoteId: "q_unknown-quote-of-nobody",
          artifactHash: `0x${"ab".repeat(32)}`,
        }),
      );
      assert.equal(refusal.code, "EIN0010");
    });

    test("an OIF-lane quote is EIN0007 at re-approval, before any signature check", async () => {
      const payer = wallet(4);
      const winner = await permit2Lane(payer);
      assert.equal(winner.lane, "oif-escrow-gasless");
      for (const body of [
        { quoteId: winner.quoteId, artifactHash: winner.disclosure.signableHash },
        {
          quoteId: winner.quoteId,
          artifactHash: `0x${"00".repeat(32)}`,
          signature: "0x1234",
          signer: payer.address,
          scheme: "eip191",
        },
      ]) {
        const refusal = refusalOf(await payer.createOrder(body));
        assert.equal(refusal.code, "EIN0007", JSON.stringify(body));
      }
    });

    test("a proxy-lane quote is EIN0007 at re-approval, before any signature check", async () => {
      const payer = wallet(4);
      const winner = await wrapNative(payer);
      for (const body of [
        { quoteId: winner.quoteId, artifactHash: winner.disclosure.signableHash },
        { quoteId: winner.quoteId, artifactHash: winner.disclosure.signableHash, signature: "0x12" },
      ]) {
        const refusal = refusalOf(await payer.createOrder(body));
        assert.equal(refusal.code, "EIN0007", JSON.stringify(body));
      }
    });
  });
});
