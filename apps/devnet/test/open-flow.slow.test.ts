import assert from "node:assert/strict";
import { performance } from "node:perf_hooks";
import { after, before, describe, test } from "node:test";
import { bridgeAbi, type DevnetAccount, decodeDepositedLogs } from "@hub/chain";
import { pollUntil } from "@hub/test-support";
import { pino } from "pino";
import type { Hex } from "viem";
import type {
  ExternalBridgeQuote,
  ExternalTransferStatus,
} from "../src/external-aggregator/external-quote.js";
import { createRelayer, type RelayedDeposit } from "../src/relayer/create-relayer.js";
import { approve, balanceOf, mined, startTestDevnet, type TestDevnet } from "./devnet-test-kit.js";

describe("open-flow bridge lane", () => {
  let devnet: TestDevnet;
  before(async () => {
    devnet = await startTestDevnet();
  });
  after(async () => devnet.stop());

  function usdcKey(chainIndex: number): string {
    const chain = devnet.manifest.chains[chainIndex]!;
    return `${chain.chainDomain}/erc20:${chain.contracts.usdc.toLowerCase()}`;
  }

  async function quote(
    user: DevnetAccount,
    recipient: DevnetAccount,
    amount: bigint,
  ): Promise<ExternalBridgeQuote> {
    const answer = await devnet.call<ExternalBridgeQuote>("POST", "/external/quote", {
      sourceAsset: usdcKey(0),
      destinationAsset: usdcKey(1),
      amount: amount.toString(),
      recipient: recipient.address,
      sourceAccount: user.address,
    });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.equal(answer.body.kind, "bridge");
    return answer.body;
  }

  function chainIdOf(chainDomain: string): number {
    const chain = devnet.manifest.chains.find((candidate) => candidate.chainDomain === chainDomain);
    assert.ok(chain, `executionTx names an unknown chain ${chainDomain}`);
    return chain.chainId;
  }

  /** Sends executionTx as a wallet does: each approval, then each step; answers the deposit id. */
  async function execute(user: DevnetAccount, executionTx: ExternalBridgeQuote["executionTx"]): Promise<Hex> {
    for (const approval of executionTx.approvals) {
      await approve(
        devnet.clients,
        chainIdOf(approval.chainId),
        user,
        approval.token,
        approval.spender,
        BigInt(approval.amount),
      );
    }
    let depositId: Hex | undefined;
    for (const step of executionTx.steps) {
      const chainId = chainIdOf(step.chainId);
      const hash = await devnet.clients
        .get(chainId)
        .wallet(user)
        .sendTransaction({ to: step.to, data: step.data, value: BigInt(step.value) });
      const receipt = await mined(devnet.clients, chainId, hash);
      depositId ??= decodeDepositedLogs(receipt.logs)[0]?.args.depositId;
    }
    assert.ok(depositId, "no Deposited log in the steps' receipts");
    return depositId;
  }

  async function releasedLogs(depositId: Hex) {
    const destination = devnet.manifest.chains[1]!;
    return devnet.clients.get(destination.chainId).publicClient.getContractEvents({
      address: destination.contracts.bridge,
      abi: bridgeAbi,
      eventName: "Released",
      args: { depositId },
      fromBlock: BigInt(destination.deployBlock),
    });
  }

  test("a bridge quote is of kind bridge and class BRIDGE, and discloses one bridge approval and one deposit step with chain-domain chain ids and the fee taken", async () => {
    const [source, destination] = devnet.manifest.chains;
    const user = devnet.manifest.users[0]!;
    const body = await quote(user, user, 5_000_000n);
    assert.match(body.quoteId, /^xq_[A-Za-z0-9_-]+$/);
    assert.equal(body.executionClass, "BRIDGE");
    assert.equal(body.amountIn, "5000000");
    assert.equal(BigInt(body.amountOut) + BigInt(body.feeAmount), 5_000_000n);
    assert.ok(BigInt(body.feeAmount) > 0n);
    assert.ok(Date.parse(body.expiresAt) > Date.now());
    assert.deepEqual(body.executionTx.approvals, [
      {
        chainId: source!.chainDomain,
        token: source!.contracts.usdc,
        spender: source!.contracts.bridge,
        amount: "5000000",
      },
    ]);
    const [step] = body.executionTx.steps;
    assert.equal(body.executionTx.steps.length, 1);
    assert.equal(step!.chainId, source!.chainDomain);
    assert.equal(typeof step!.chainId, "string");
    assert.equal(step!.to, source!.contracts.bridge);
    assert.equal(step!.value, "0");
    assert.match(step!.data, /^0x[0-9a-f]+$/);
    assert.ok(destination);
    const read = await devnet.call<ExternalBridgeQuote>("GET", `/external/quotes/${body.quoteId}`);
    assert.deepEqual(read.body, body);
  });

  test("an undeclared token, a destination that is not the counterpart, an amount beyond uint256 or under the fee, and an unknown quote are refused", async () => {
    const [source, destination] = devnet.manifest.chains;
    const user = devnet.manifest.users[0]!;
    const undeclared = await devnet.call<{ error: string }>("POST", "/external/quote", {
      sourceAsset: `${source!.chainDomain}/erc20:${source!.contracts.undeclaredToken.toLowerCase()}`,
      destinationAsset: `${destination!.chainDomain}/erc20:${destination!.contracts.undeclaredToken.toLowerCase()}`,
      amount: "1000",
      recipient: user.address,
    });
    assert.equal(undeclared.status, 400);
    assert.equal(undeclared.body.error, "NO_ROUTE");
    const notCounterpart = await devnet.call<{ error: string }>("POST", "/external/quote", {
      sourceAsset: usdcKey(0),
      destinationAsset: `${destination!.chainDomain}/erc20:${destination!.contracts.token.toLowerCase()}`,
      amount: "1000",
      recipient: user.address,
    });
    assert.equal(notCounterpart.status, 400);
    assert.equal(notCounterpart.body.error, "NO_ROUTE");
    const underFee = await devnet.call<{ error: string; message: string }>("POST", "/external/quote", {
      sourceAsset: usdcKey(0),
      destinationAsset: usdcKey(1),
      amount: "1",
      recipient: user.address,
    });
    assert.equal(underFee.status, 400);
    assert.equal(underFee.body.error, "NO_ROUTE");
    assert.match(underFee.body.message, /fee/);
    const huge = await devnet.call<{ error: string }>("POST", "/external/quote", {
      sourceAsset: usdcKey(0),
      destinationAsset: usdcKey(1),
      amount: "9".repeat(78),
      recipient: user.address,
    });
    assert.equal(huge.status, 400);
    assert.equal(huge.body.error, "VALIDATION_ERROR");
    const unknown = await devnet.call<{ error: string }>("GET", "/external/quotes/xq_missing/status");
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.error, "QUOTE_NOT_FOUND");
  });

  test("sending the quote's approval and deposit step gets Deposited on the source, Released on the destination and the recipient paid amountOut", async (t) => {
    const destination = devnet.manifest.chains[1]!;
    const user = devnet.manifest.users[1]!;
    const recipient = devnet.manifest.users[2]!;
    const quotedAt = performance.now();
    const body = await quote(user, recipient, 2_500_000n);
    const before = await balanceOf(
      devnet.clients,
      destination.chainId,
      destination.contracts.usdc,
      recipient.address,
    );

    const depositId = await execute(user, body.executionTx);
    const [released] = await pollUntil("Released on the destination", async () => {
      const logs = await releasedLogs(depositId);
      return logs.length > 0 ? logs : undefined;
    });
    t.diagnostic(`quote to Released in ${Math.round(performance.now() - quotedAt)} ms`);
    assert.equal(released!.args.recipient, recipient.address);
    assert.equal(released!.args.amount, BigInt(body.amountOut));
    const after = await balanceOf(
      devnet.clients,
      destination.chainId,
      destination.contracts.usdc,
      recipient.address,
    );
    assert.equal(after - before, BigInt(body.amountOut));

    const status = await pollUntil("the quote's status to read released", async () => {
      const answer = await devnet.call<ExternalTransferStatus>(
        "GET",
        `/external/quotes/${body.quoteId}/status`,
      );
      return answer.body.state === "released" ? answer.body : undefined;
    });
    assert.equal(status.depositId, depositId);
    assert.equal(status.releasedAmount, body.amountOut);
    assert.equal(status.releaseTxHash, released!.transactionHash);
  });

  test("a paused relayer holds the release of a seen deposit until it is resumed", async () => {
    const destination = devnet.manifest.chains[1]!;
    const user = devnet.manifest.users[3]!;
    assert.equal((await devnet.call("POST", "/control/relayer/pause")).status, 200);
    const body = await quote(user, user, 1_000_000n);
    const before = await balanceOf(
      devnet.clients,
      destination.chainId,
      destination.contracts.usdc,
      user.address,
    );
    const depositId = await execute(user, body.executionTx);

    // The relayer records a deposit in the same pass that would release it, so once it is listed as
    // pending the pause has held at least one release attempt.
    const held = await pollUntil("the relayer to see the deposit", async () => {
      const view = await devnet.call<{ deposits: RelayedDeposit[] }>("GET", "/control/relayer");
      return view.body.deposits.find((entry) => entry.depositId === depositId);
    });
    assert.equal(held.state, "pending");
    const status = await devnet.call<ExternalTransferStatus>(
      "GET",
      `/external/quotes/${body.quoteId}/status`,
    );
    assert.equal(status.body.state, "deposited");
    assert.deepEqual(await releasedLogs(depositId), []);
    assert.equal(
      await balanceOf(devnet.clients, destination.chainId, destination.contracts.usdc, user.address),
      before,
    );

    assert.equal((await devnet.call("POST", "/control/relayer/resume")).status, 200);
    await pollUntil("Released after resume", async () => (await releasedLogs(depositId)).length > 0);
    const after = await balanceOf(
      devnet.clients,
      destination.chainId,
      destination.contracts.usdc,
      user.address,
    );
    assert.equal(after - before, BigInt(body.amountOut));
  });

  test("a deposit naming a chain the devnet does not have is never released and reads as unroutable", async () => {
    const source = devnet.manifest.chains[0]!;
    const user = devnet.manifest.users[5]!;
    await approve(
      devnet.clients,
      source.chainId,
      user,
      source.contracts.usdc,
      source.contracts.bridge,
      1000n,
    );
    const receipt = await mined(
      devnet.clients,
      source.chainId,
      await devnet.clients
        .get(source.chainId)
        .wallet(user)
        .writeContract({
          address: source.contracts.bridge,
          abi: bridgeAbi,
          functionName: "deposit",
          args: [source.contracts.usdc, 1000n, 999n, user.address, `0x${"00".repeat(32)}`],
        }),
    );
    const depositId = decodeDepositedLogs(receipt.logs)[0]!.args.depositId;
    const entry = await pollUntil("the relayer to classify the deposit", async () => {
      const view = await devnet.call<{ deposits: RelayedDeposit[] }>("GET", "/control/relayer");
      return view.body.deposits.find((candidate) => candidate.depositId === depositId);
    });
    assert.equal(entry.state, "unroutable");
    assert.match(entry.reason ?? "", /999/);
  });

  test("a relayer restarted over the same chains rescans and never releases a deposit twice", async () => {
    const user = devnet.manifest.users[4]!;
    const body = await quote(user, user, 750_000n);
    const depositId = await execute(user, body.executionTx);
    await pollUntil("the first release", async () => (await releasedLogs(depositId)).length > 0);

    const restarted = createRelayer(
      { manifest: devnet.manifest, feeBps: body.feeBps, pollIntervalMs: 25 },
      { clients: devnet.clients, logger: pino({ level: "silent" }) },
    );
    restarted.start();
    try {
      const seen = await pollUntil("the restarted relayer to settle the old deposit", async () => {
        const entry = restarted.deposits().find((candidate) => candidate.depositId === depositId);
        return entry?.state === "released" ? entry : undefined;
      });
      assert.equal(seen.releaseTxHash, undefined, "the restarted relayer sent a release");
    } finally {
      await restarted.stop();
    }
    assert.equal((await releasedLogs(depositId)).length, 1);
  });
});
