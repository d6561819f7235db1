import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { after, before, describe, test } from "node:test";
import {
  addressToBytes32,
  type DevnetAccount,
  decodeRefundedLogs,
  inputSettlerEscrowAbi,
  orderIdentifier,
  type StandardOrder,
  userProxyAbi,
} from "@hub/chain";
import { pollUntil } from "@hub/test-support";
import { type Hex, parseEther, parseUnits } from "viem";
import { encodeInteropAddress } from "../src/aggregator/interop-address.js";
import { evmOrderPayload, type QuotesResponse } from "../src/aggregator/oif-quote.js";
import { approve, balanceOf, mined, startTestDevnet, type TestDevnet } from "./devnet-test-kit.js";

const escrowStatus = { Deposited: 1, Refunded: 3 } as const;

describe("refund after expiry", () => {
  let devnet: TestDevnet;
  before(async () => {
    devnet = await startTestDevnet();
  });
  after(async () => devnet.stop());

  async function chainNow(chainId: number): Promise<number> {
    return Number((await devnet.clients.get(chainId).publicClient.getBlock()).timestamp);
  }

  async function orderStatus(chainId: number, escrow: Hex, orderId: Hex): Promise<number> {
    return Number(
      await devnet.clients.get(chainId).publicClient.readContract({
        address: escrow,
        abi: inputSettlerEscrowAbi,
        functionName: "orderStatus",
        args: [orderId],
      }),
    );
  }

  async function refund(caller: DevnetAccount, chainId: number, escrow: Hex, order: StandardOrder) {
    const client = devnet.clients.get(chainId);
    const { request } = await client.publicClient.simulateContract({
      address: escrow,
      abi: inputSettlerEscrowAbi,
      functionName: "refund",
      args: [order],
      account: client.wallet(caller).account,
    });
    return mined(devnet.clients, chainId, await client.wallet(caller).writeContract(request));
  }

  test("an unfilled order is refunded only after time travel past its expiry, to the user alone, once", async () => {
    const [origin, destination] = devnet.manifest.chains;
    const user = devnet.manifest.users[6]!;
    const stranger = devnet.manifest.users[7]!;
    const escrow = origin!.contracts.inputSettlerEscrow;
    const token = origin!.contracts.usdc;
    const amount = parseUnits("42", 6);
    const now = await chainNow(origin!.chainId);
    const order: StandardOrder = {
      user: user.address,
      nonce: BigInt(`0x${randomBytes(8).toString("hex")}`),
      originChainId: BigInt(origin!.chainId),
      expires: now + 120,
      fillDeadline: now + 60,
      inputOracle: origin!.contracts.committeeOracle,
      inputs: [[BigInt(token), amount]],
      outputs: [
        {
          oracle: addressToBytes32(destination!.contracts.committeeOracle),
          settler: addressToBytes32(destination!.contracts.outputSettler),
          chainId: BigInt(destination!.chainId),
          token: addressToBytes32(destination!.contracts.usdc),
          amount,
          recipient: addressToBytes32(user.address),
          callbackData: "0x",
          context: "0x",
        },
      ],
    };
    const orderId = orderIdentifier(order, origin!.chainId, escrow);
    const userBefore = await balanceOf(devnet.clients, origin!.chainId, token, user.address);
    await approve(devnet.clients, origin!.chainId, user, token, escrow, amount);
    await mined(
      devnet.clients,
      origin!.chainId,
      await devnet.clients
        .get(origin!.chainId)
        .wallet(user)
        .writeContract({
          address: escrow,
          abi: inputSettlerEscrowAbi,
          functionName: "open",
          args: [order],
        }),
    );
    assert.equal(await orderStatus(origin!.chainId, escrow, orderId), escrowStatus.Deposited);
    await assert.rejects(refund(stranger, origin!.chainId, escrow, order), /TimestampNotPassed/);

    const moved = await devnet.call<{ timestamp: number }>(
      "POST",
      `/control/chains/${origin!.chainDomain}/increase-time`,
      { seconds: 121 },
    );
    assert.equal(moved.status, 200);
    assert.ok(moved.body.timestamp > order.expires);

    const strangerBefore = await balanceOf(devnet.clients, origin!.chainId, token, stranger.address);
    const escrowBefore = await balanceOf(devnet.clients, origin!.chainId, token, escrow);
    const receipt = await refund(stranger, origin!.chainId, escrow, order);
    assert.equal(decodeRefundedLogs(receipt.logs)[0]?.args.orderId, orderId);
    assert.equal(await balanceOf(devnet.clients, origin!.chainId, token, user.address), userBefore);
    assert.equal(await balanceOf(devnet.clients, origin!.chainId, token, stranger.address), strangerBefore);
    assert.equal(await balanceOf(devnet.clients, origin!.chainId, token, escrow), escrowBefore - amount);
    assert.equal(await orderStatus(origin!.chainId, escrow, orderId), escrowStatus.Refunded);
    await assert.rejects(refund(stranger, origin!.chainId, escrow, order), /InvalidOrderStatus/);
  });

  test("a wrapAndOpen order whose solver fails before the fill is refunded in the wrapped native to its user after expiry", async () => {
    const [origin, destination] = devnet.manifest.chains;
    const user = devnet.manifest.users[5]!;
    const stranger = devnet.manifest.users[7]!;
    const escrow = origin!.contracts.inputSettlerEscrow;
    for (const id of ["alpha", "beta"])
      assert.equal(
        (await devnet.call("POST", `/control/solvers/${id}/faults`, { failAt: "Fill" })).status,
        200,
      );

    const amount = parseEther("0.1");
    const quotes = await devnet.call<QuotesResponse>("POST", "/aggregator/api/v1/quotes", {
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
      },
      supportedTypes: ["oif-escrow-v0"],
    });
    assert.equal(quotes.status, 200, JSON.stringify(quotes.body));
    const quote = quotes.body.quotes[0]!;
    const message = evmOrderPayload(quote.order).message as unknown as {
      permitted: { token: Hex; amount: string }[];
      nonce: string;
      deadline: string;
      witness: { user: Hex; expires: number; inputOracle: Hex; outputs: Record<string, unknown>[] };
    };
    const order: StandardOrder = {
      user: message.witness.user,
      nonce: BigInt(message.nonce),
      originChainId: BigInt(origin!.chainId),
      expires: message.witness.expires,
      fillDeadline: Number(message.deadline),
      inputOracle: message.witness.inputOracle,
      inputs: message.permitted.map((permit) => [BigInt(permit.token), BigInt(permit.amount)] as const),
      outputs: message.witness.outputs.map((output) => ({
        oracle: output.oracle as Hex,
        settler: output.settler as Hex,
        chainId: BigInt(output.chainId as number),
        token: output.token as Hex,
        amount: BigInt(output.amount as string),
        recipient: output.recipient as Hex,
        callbackData: output.callbackData as Hex,
        context: output.context as Hex,
      })),
    };
    const orderId = orderIdentifier(order, origin!.chainId, escrow);
    const wrappedBefore = await balanceOf(
      devnet.clients,
      origin!.chainId,
      origin!.contracts.wrappedNative,
      user.address,
    );
    await mined(
      devnet.clients,
      origin!.chainId,
      await devnet.clients
        .get(origin!.chainId)
        .wallet(user)
        .writeContract({
          address: origin!.contracts.userProxy,
          abi: userProxyAbi,
          functionName: "wrapAndOpen",
          args: [order],
          value: amount,
        }),
    );
    const registered = await devnet.call<{ orderId: string }>("POST", "/aggregator/api/v1/orders", {
      quoteResponse: quote,
    });
    assert.equal(registered.status, 200, JSON.stringify(registered.body));
    const failed = await pollUntil("the solver to report its failure at Fill", async () => {
      const answer = await devnet.call<{ status: unknown }>(
        "GET",
        `/aggregator/api/v1/orders/${orderId.slice(2)}`,
      );
      const status = answer.body.status as { failed?: [string, string] };
      return typeof status === "object" && status.failed ? status.failed : undefined;
    });
    assert.equal(failed[0], "Fill");
    assert.equal(await orderStatus(origin!.chainId, escrow, orderId), escrowStatus.Deposited);

    const seconds = order.expires - (await chainNow(origin!.chainId)) + 1;
    assert.equal(
      (await devnet.call("POST", `/control/chains/${origin!.chainId}/increase-time`, { seconds })).status,
      200,
    );
    const strangerBefore = await balanceOf(
      devnet.clients,
      origin!.chainId,
      origin!.contracts.wrappedNative,
      stranger.address,
    );
    await refund(stranger, origin!.chainId, escrow, order);
    assert.equal(
      await balanceOf(devnet.clients, origin!.chainId, origin!.contracts.wrappedNative, user.address),
      wrappedBefore + amount,
    );
    assert.equal(
      await balanceOf(devnet.clients, origin!.chainId, origin!.contracts.wrappedNative, stranger.address),
      strangerBefore,
    );
    assert.equal(await orderStatus(origin!.chainId, escrow, orderId), escrowStatus.Refunded);
  });
});
