import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import {
  type DevnetAccount,
  decodeOpenLogs,
  inputSettlerEscrowAbi,
  orderIdentifier,
  outputSettlerAbi,
  type StandardOrder,
  userProxyAbi,
} from "@hub/chain";
import { pollUntil } from "@hub/test-support";
import { type Hex, parseEther } from "viem";
import { encodeInteropAddress } from "../src/aggregator/interop-address.js";
import type { OrderResponse } from "../src/aggregator/oif-order.js";
import type { QuoteResponse, QuotesResponse } from "../src/aggregator/oif-quote.js";
import { balanceOf, mined, startTestDevnet, type TestDevnet } from "./devnet-test-kit.js";
import { orderFromQuote } from "./escrow-quote-order.js";

interface ClockView {
  nowMs: number;
  now: string;
  offsetMs: number;
}

describe("quote expiry on the devnet clock, and Opens of quoted orders that no registration announced", () => {
  let devnet: TestDevnet;
  before(async () => {
    devnet = await startTestDevnet({ committeeDelayMs: 100 });
  });
  after(async () => devnet.stop());

  async function wrapNativeQuote(user: DevnetAccount, amount: bigint): Promise<QuoteResponse> {
    const [origin, destination] = devnet.manifest.chains;
    const answer = await devnet.call<QuotesResponse>("POST", "/aggregator/api/v1/quotes", {
      user: encodeInteropAddress(origin!.chainId, user.address),
      intent: {
        intentType: "oif-swap",
        inputs: [
          {
            user: encodeInteropAddress(origin!.chainId, user.address),
            asset: encodeInteropAddress(origin!.chainId, origin!.contracts.wrappedNative),
            amount: amount.toString(),
          },
        ],
        outputs: [
          {
            receiver: encodeInteropAddress(destination!.chainId, user.address),
            asset: encodeInteropAddress(destination!.chainId, destination!.contracts.wrappedNative),
          },
        ],
        swapType: "exact-input",
      },
      supportedTypes: ["oif-escrow-v0"],
    });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    return answer.body.quotes[0]!;
  }

  /** Sends wrapAndOpen as the user's wallet would and returns the order id its Open reports. */
  async function wrapAndOpen(user: DevnetAccount, order: StandardOrder, amount: bigint): Promise<Hex> {
    const [origin] = devnet.manifest.chains;
    const hash = await devnet.clients
      .get(origin!.chainId)
      .wallet(user)
      .writeContract({
        address: origin!.contracts.userProxy,
        abi: userProxyAbi,
        functionName: "wrapAndOpen",
        args: [order],
        value: amount,
      });
    const receipt = await mined(devnet.clients, origin!.chainId, hash);
    const [open] = decodeOpenLogs(receipt.logs);
    assert.ok(open, "wrapAndOpen emits Open");
    return open.args.orderId;
  }

  async function outputFilledLogs(orderId: Hex) {
    const [, destination] = devnet.manifest.chains;
    return devnet.clients.get(destination!.chainId).publicClient.getContractEvents({
      address: destination!.contracts.outputSettler,
      abi: outputSettlerAbi,
      eventName: "OutputFilled",
      args: { orderId },
      fromBlock: BigInt(destination!.deployBlock),
    });
  }

  async function awaitFinalised(orderId: Hex): Promise<void> {
    const [origin] = devnet.manifest.chains;
    await pollUntil(
      "the escrow to pay the solver (Finalised)",
      async () => {
        const status = await devnet.clients.get(origin!.chainId).publicClient.readContract({
          address: origin!.contracts.inputSettlerEscrow,
          abi: inputSettlerEscrowAbi,
          functionName: "orderStatus",
          args: [orderId],
        });
        return Number(status) === 2;
      },
      { timeoutMs: 30_000 },
    );
  }

  test("a solver's quote is valid for 30 s after issue by default", async () => {
    const clock = await devnet.call<ClockView>("GET", "/control/clock");
    const quote = await wrapNativeQuote(devnet.manifest.users[0]!, parseEther("0.01"));
    const lifetimeSeconds = quote.validUntil! - Math.floor(clock.body.nowMs / 1000);
    assert.ok(
      lifetimeSeconds >= 29 && lifetimeSeconds <= 31,
      `validUntil is ${lifetimeSeconds} s after issue`,
    );
  });

  test("GET /control/clock reads the off-chain clock and POST /control/clock/advance moves it forward only", async () => {
    const before = await devnet.call<ClockView>("GET", "/control/clock");
    assert.equal(before.status, 200);
    assert.equal(new Date(before.body.now).getTime(), before.body.nowMs);
    const moved = await devnet.call<ClockView>("POST", "/control/clock/advance", { ms: 5000 });
    assert.equal(moved.status, 200);
    assert.equal(moved.body.offsetMs, before.body.offsetMs + 5000);
    assert.ok(moved.body.nowMs - before.body.nowMs >= 5000);
    for (const body of [{ ms: 0 }, { ms: -1000 }, { ms: 1.5 }, { seconds: 5 }, {}]) {
      const refused = await devnet.call<{ error: string; message: string }>(
        "POST",
        "/control/clock/advance",
        body,
      );
      assert.equal(refused.status, 400, JSON.stringify(body));
      assert.equal(refused.body.error, "VALIDATION_ERROR");
    }
    const unchanged = await devnet.call<ClockView>("GET", "/control/clock");
    assert.equal(unchanged.body.offsetMs, moved.body.offsetMs);
  });

  test("after the clock passes validUntil the aggregator refuses the registration 400 QUOTE_EXPIRED, and the solver still fills the wrapAndOpen", async () => {
    const [origin, destination] = devnet.manifest.chains;
    const user = devnet.manifest.users[1]!;
    const amount = parseEther("0.2");
    const quote = await wrapNativeQuote(user, amount);
    const order = orderFromQuote(quote);
    const expectedId = orderIdentifier(order, origin!.chainId, origin!.contracts.inputSettlerEscrow);
    const before = await balanceOf(
      devnet.clients,
      destination!.chainId,
      destination!.contracts.wrappedNative,
      user.address,
    );

    assert.equal((await devnet.call("POST", "/control/clock/advance", { ms: 31_000 })).status, 200);
    assert.equal(await wrapAndOpen(user, order, amount), expectedId);
    const refused = await devnet.call<{ error: string; message: string; timestamp: number }>(
      "POST",
      "/aggregator/api/v1/orders",
      { quoteResponse: quote },
    );
    assert.equal(refused.status, 400);
    assert.equal(refused.body.error, "QUOTE_EXPIRED");
    assert.match(refused.body.message, /expired/);
    assert.equal(typeof refused.body.timestamp, "number");

    const filled = await pollUntil("OutputFilled of the unregistered order", async () => {
      const logs = await outputFilledLogs(expectedId);
      return logs.length > 0 ? logs : undefined;
    });
    assert.equal(filled.length, 1);
    assert.equal(filled[0]!.args.output?.amount, order.outputs[0]!.amount);
    await awaitFinalised(expectedId);
    const after = await balanceOf(
      devnet.clients,
      destination!.chainId,
      destination!.contracts.wrappedNative,
      user.address,
    );
    assert.equal(after - before, order.outputs[0]!.amount);
  });

  test("an Open of a quoted order that is never registered is filled and settled", async () => {
    const [origin] = devnet.manifest.chains;
    const user = devnet.manifest.users[2]!;
    const amount = parseEther("0.1");
    const order = orderFromQuote(await wrapNativeQuote(user, amount));
    const orderId = await wrapAndOpen(user, order, amount);
    assert.equal(orderId, orderIdentifier(order, origin!.chainId, origin!.contracts.inputSettlerEscrow));

    const filled = await pollUntil("OutputFilled of the never-registered order", async () => {
      const logs = await outputFilledLogs(orderId);
      return logs.length > 0 ? logs : undefined;
    });
    assert.equal(filled[0]!.args.output?.recipient, order.outputs[0]!.recipient);
    await awaitFinalised(orderId);
    assert.equal((await outputFilledLogs(orderId)).length, 1);
  });

  for (const when of ["before", "after"] as const) {
    test(`a registration sent ${when} the Open leads to exactly one fill, the one the aggregator reports`, async () => {
      const user = devnet.manifest.users[when === "before" ? 3 : 6]!;
      const amount = parseEther("0.05");
      const quote = await wrapNativeQuote(user, amount);
      const order = orderFromQuote(quote);
      const register = () =>
        devnet.call<OrderResponse>("POST", "/aggregator/api/v1/orders", { quoteResponse: quote });

      let registered = when === "before" ? await register() : undefined;
      const orderId = await wrapAndOpen(user, order, amount);
      if (when === "after") {
        await pollUntil("the solver to fill the Open on its own", async () => {
          const logs = await outputFilledLogs(orderId);
          return logs.length > 0;
        });
        registered = await register();
      }
      assert.equal(registered!.status, 200, JSON.stringify(registered!.body));
      assert.equal(`0x${registered!.body.orderId}`, orderId);

      await awaitFinalised(orderId);
      const finalized = await pollUntil("the aggregator to report the order finalized", async () => {
        const read = await devnet.call<OrderResponse>("GET", `/aggregator/api/v1/orders/${orderId}`);
        return read.body.status === "finalized" ? read.body : undefined;
      });
      const fills = await outputFilledLogs(orderId);
      assert.equal(fills.length, 1);
      assert.equal(finalized.fillTransaction?.hash, fills[0]!.transactionHash);
    });
  }
});
