import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import {
  type DevnetAccount,
  decodeOpenLogs,
  inputSettlerEscrowAbi,
  orderIdentifier,
  outputSettlerAbi,
  type StandardOrder,
  swapRouterAbi,
  userProxyAbi,
} from "@hub/chain";
import { pollUntil } from "@hub/test-support";
import { type Hex, parseEther, parseUnits } from "viem";
import { encodeInteropAddress } from "../src/aggregator/interop-address.js";
import type { QuoteResponse, QuotesResponse } from "../src/aggregator/oif-quote.js";
import { approve, balanceOf, mined, startTestDevnet, type TestDevnet } from "./devnet-test-kit.js";
import { orderFromQuote } from "./escrow-quote-order.js";

type DeclaredKind = "usdc" | "wrappedNative";

describe("proxy lanes through the devnet's aggregator and solvers", () => {
  let devnet: TestDevnet;
  before(async () => {
    devnet = await startTestDevnet({ committeeDelayMs: 100 });
  });
  after(async () => devnet.stop());

  async function bestQuote(user: DevnetAccount, kind: DeclaredKind, amount: bigint): Promise<QuoteResponse> {
    const [origin, destination] = devnet.manifest.chains;
    const answer = await devnet.call<QuotesResponse>("POST", "/aggregator/api/v1/quotes", {
      user: encodeInteropAddress(origin!.chainId, user.address),
      intent: {
        intentType: "oif-swap",
        inputs: [
          {
            user: encodeInteropAddress(origin!.chainId, user.address),
            asset: encodeInteropAddress(origin!.chainId, origin!.contracts[kind]),
            amount: amount.toString(),
          },
        ],
        outputs: [
          {
            receiver: encodeInteropAddress(destination!.chainId, user.address),
            asset: encodeInteropAddress(destination!.chainId, destination!.contracts[kind]),
          },
        ],
        swapType: "exact-input",
      },
      supportedTypes: ["oif-escrow-v0"],
    });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.ok(answer.body.quotes.length >= 2, "both solvers quote");
    return answer.body.quotes[0]!;
  }

  /** Registers the order without a signature, as the hub does on a proxy lane once the step is sent. */
  async function register(quote: QuoteResponse): Promise<void> {
    const answer = await devnet.call("POST", "/aggregator/api/v1/orders", { quoteResponse: quote });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
  }

  async function awaitFillAndSettle(order: StandardOrder, orderId: Hex) {
    const [origin, destination] = devnet.manifest.chains;
    const [filled] = await pollUntil(
      "a solver's OutputFilled",
      async () => {
        const logs = await devnet.clients.get(destination!.chainId).publicClient.getContractEvents({
          address: destination!.contracts.outputSettler,
          abi: outputSettlerAbi,
          eventName: "OutputFilled",
          args: { orderId },
          fromBlock: BigInt(destination!.deployBlock),
        });
        return logs.length > 0 ? logs : undefined;
      },
      { timeoutMs: 30_000 },
    );
    assert.equal(filled!.args.output?.amount, order.outputs[0]!.amount);
    const status = await pollUntil(
      "the escrow to pay the solver (Finalised)",
      async () => {
        const value = await devnet.clients.get(origin!.chainId).publicClient.readContract({
          address: origin!.contracts.inputSettlerEscrow,
          abi: inputSettlerEscrowAbi,
          functionName: "orderStatus",
          args: [orderId],
        });
        return Number(value) === 2 ? value : undefined;
      },
      { timeoutMs: 30_000 },
    );
    assert.equal(Number(status), 2);
  }

  test("wrapAndOpen with value equal to the amount opens the order, and a solver fills it to the recipient", async () => {
    const [origin, destination] = devnet.manifest.chains;
    const user = devnet.manifest.users[4]!;
    const amount = parseEther("0.25");
    const quote = await bestQuote(user, "wrappedNative", amount);
    const order = orderFromQuote(quote);
    assert.equal(order.inputs[0]![0], BigInt(origin!.contracts.wrappedNative));
    const expectedId = orderIdentifier(order, origin!.chainId, origin!.contracts.inputSettlerEscrow);
    const before = await balanceOf(
      devnet.clients,
      destination!.chainId,
      destination!.contracts.wrappedNative,
      user.address,
    );

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
    assert.equal(open?.args.orderId, expectedId);
    assert.equal(open?.args.order.user, user.address);
    await register(quote);

    await awaitFillAndSettle(order, expectedId);
    const after = await balanceOf(
      devnet.clients,
      destination!.chainId,
      destination!.contracts.wrappedNative,
      user.address,
    );
    assert.equal(after - before, order.outputs[0]!.amount);
  });

  test("an approval and swapAndOpenV2 with value 0 swap the undeclared token, open the order, and a solver fills it", async () => {
    const [origin, destination] = devnet.manifest.chains;
    const user = devnet.manifest.users[5]!;
    const amountIn = parseUnits("100", 6);
    const quote = await bestQuote(user, "usdc", amountIn);
    const order = orderFromQuote(quote);
    const originClient = devnet.clients.get(origin!.chainId);
    const amountMax = await originClient.publicClient.readContract({
      address: origin!.contracts.swapRouter,
      abi: swapRouterAbi,
      functionName: "quoteExactOutput",
      args: [origin!.contracts.undeclaredToken, origin!.contracts.usdc, amountIn],
    });
    const undeclaredBefore = await balanceOf(
      devnet.clients,
      origin!.chainId,
      origin!.contracts.undeclaredToken,
      user.address,
    );
    const usdcBefore = await balanceOf(
      devnet.clients,
      destination!.chainId,
      destination!.contracts.usdc,
      user.address,
    );

    await approve(
      devnet.clients,
      origin!.chainId,
      user,
      origin!.contracts.undeclaredToken,
      origin!.contracts.userProxy,
      amountMax,
    );
    const hash = await originClient.wallet(user).writeContract({
      address: origin!.contracts.userProxy,
      abi: userProxyAbi,
      functionName: "swapAndOpenV2",
      args: [origin!.contracts.undeclaredToken, amountMax, order],
    });
    assert.equal((await originClient.publicClient.getTransaction({ hash })).value, 0n);
    const receipt = await mined(devnet.clients, origin!.chainId, hash);
    const expectedId = orderIdentifier(order, origin!.chainId, origin!.contracts.inputSettlerEscrow);
    assert.equal(decodeOpenLogs(receipt.logs)[0]?.args.orderId, expectedId);
    const undeclaredAfter = await balanceOf(
      devnet.clients,
      origin!.chainId,
      origin!.contracts.undeclaredToken,
      user.address,
    );
    assert.equal(undeclaredBefore - undeclaredAfter, amountMax);
    await register(quote);

    await awaitFillAndSettle(order, expectedId);
    const usdcAfter = await balanceOf(
      devnet.clients,
      destination!.chainId,
      destination!.contracts.usdc,
      user.address,
    );
    assert.equal(usdcAfter - usdcBefore, order.outputs[0]!.amount);
  });
});
