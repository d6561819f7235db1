import assert from "node:assert/strict";
import { type AddressInfo, createServer } from "node:net";
import { after, afterEach, before, beforeEach, describe, it } from "node:test";
import {
  bridgeAbi,
  decodeDepositedLogs,
  decodeOpenLogs,
  decodeReleasedLogs,
  devnetErc20Abi,
  inputSettlerEscrowAbi,
  orderIdentifier,
  swapAndOpenV2Calls,
  swapRouterAbi,
  userProxyAbi,
  wrapAndOpenCall,
} from "@hub/chain";
import { catalogSchema } from "@hub/contract";
import { pollUntil } from "@hub/test-support";
import { parseEther, parseUnits } from "viem";
import { buildCatalog, startDevnetChains } from "../src/chains/index.js";
import {
  type ChainsFixture,
  crossChainOrder,
  publicClientFor,
  startChainsFixture,
  walletClientFor,
} from "./chains-fixture.js";

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

describe("devnet user proxy, swap router and bridge", () => {
  let f: ChainsFixture;
  before(async () => {
    f = await startChainsFixture();
  });
  after(async () => {
    await f?.devnet.stop();
  });
  beforeEach(async () => {
    await f.snapshot();
  });
  afterEach(async () => {
    await f.revert();
  });

  it("wrapAndOpen wraps the sent value and opens the order with the chosen user, who gets the refund", async () => {
    const caller = f.devnet.manifest.users[2]!;
    const user = f.devnet.manifest.users[3]!;
    const value = parseEther("1.5");
    const order = crossChainOrder({
      origin: f.origin,
      destination: f.destination,
      user: user.address,
      inputToken: f.origin.contracts.wrappedNative,
      inputAmount: value,
      outputToken: null,
      outputAmount: parseEther("1.49"),
      recipient: user.address,
      now: await f.latestTimestamp(f.origin),
    });
    const wallet = walletClientFor(f.origin, caller);
    await assert.rejects(
      wallet.writeContract({
        address: f.origin.contracts.userProxy,
        abi: userProxyAbi,
        functionName: "wrapAndOpen",
        args: [order],
        value: value - 1n,
      }),
      /ValueNotInputAmount/,
    );
    const receipt = await f.originClient.waitForTransactionReceipt({
      hash: await wallet.sendTransaction(wrapAndOpenCall({ userProxy: f.origin.contracts.userProxy, order })),
    });
    const opened = decodeOpenLogs(receipt.logs);
    assert.equal(opened.length, 1);
    assert.equal(
      opened[0]!.args.orderId,
      orderIdentifier(order, f.origin.chainId, f.origin.contracts.inputSettlerEscrow),
    );
    assert.equal(opened[0]!.args.order.user, user.address);
    const escrow = f.origin.contracts.inputSettlerEscrow;
    assert.equal(await f.balanceOf(f.origin, f.origin.contracts.wrappedNative, escrow), value);
    assert.equal(
      await f.balanceOf(f.origin, f.origin.contracts.wrappedNative, f.origin.contracts.userProxy),
      0n,
    );

    await f.increaseTime(f.origin, order.expires - (await f.latestTimestamp(f.origin)) + 1);
    const userBefore = await f.balanceOf(f.origin, f.origin.contracts.wrappedNative, user.address);
    await f.originClient.waitForTransactionReceipt({
      hash: await walletClientFor(f.origin, f.devnet.manifest.solvers[0]!).writeContract({
        address: escrow,
        abi: inputSettlerEscrowAbi,
        functionName: "refund",
        args: [order],
      }),
    });
    assert.equal(
      await f.balanceOf(f.origin, f.origin.contracts.wrappedNative, user.address),
      userBefore + value,
    );
    assert.equal(await f.balanceOf(f.origin, f.origin.contracts.wrappedNative, caller.address), 0n);
  });

  it("swapAndOpenV2 takes amountMax of the undeclared token, opens the order for the input amount and sends the surplus to the user", async () => {
    const user = f.devnet.manifest.users[4]!;
    const { contracts } = f.origin;
    const inputAmount = parseUnits("50", 6);
    const router = { address: contracts.swapRouter, abi: swapRouterAbi } as const;
    const amountIn = await f.originClient.readContract({
      ...router,
      functionName: "quoteExactOutput",
      args: [contracts.undeclaredToken, contracts.usdc, inputAmount],
    });
    assert.equal(
      await f.originClient.readContract({
        ...router,
        functionName: "quoteExactInput",
        args: [contracts.undeclaredToken, contracts.usdc, amountIn],
      }),
      inputAmount,
    );
    const amountMax = amountIn + parseEther("2");
    const order = crossChainOrder({
      origin: f.origin,
      destination: f.destination,
      user: user.address,
      inputToken: contracts.usdc,
      inputAmount,
      outputToken: f.destination.contracts.usdc,
      outputAmount: parseUnits("49", 6),
      recipient: user.address,
      now: await f.latestTimestamp(f.origin),
    });
    const wallet = walletClientFor(f.origin, user);
    const steps = swapAndOpenV2Calls({
      userProxy: contracts.userProxy,
      tokenIn: contracts.undeclaredToken,
      amountMax,
      order,
    });
    await f.originClient.waitForTransactionReceipt({ hash: await wallet.sendTransaction(steps.approval) });
    const undeclaredBefore = await f.balanceOf(f.origin, contracts.undeclaredToken, user.address);
    const usdcBefore = await f.balanceOf(f.origin, contracts.usdc, user.address);
    const receipt = await f.originClient.waitForTransactionReceipt({
      hash: await wallet.sendTransaction(steps.swapAndOpen),
    });
    assert.equal(decodeOpenLogs(receipt.logs)[0]?.args.order.user, user.address);
    assert.equal(
      await f.balanceOf(f.origin, contracts.undeclaredToken, user.address),
      undeclaredBefore - amountMax,
    );
    assert.equal(await f.balanceOf(f.origin, contracts.usdc, contracts.inputSettlerEscrow), inputAmount);
    assert.equal(await f.balanceOf(f.origin, contracts.usdc, user.address), usdcBefore + parseUnits("2", 6));
    assert.equal(await f.balanceOf(f.origin, contracts.usdc, contracts.userProxy), 0n);
  });

  it("swapAndOpenV2 reverts when amountMax does not buy the order's input amount", async () => {
    const user = f.devnet.manifest.users[4]!;
    const { contracts } = f.origin;
    const order = crossChainOrder({
      origin: f.origin,
      destination: f.destination,
      user: user.address,
      inputToken: contracts.usdc,
      inputAmount: parseUnits("50", 6),
      outputToken: f.destination.contracts.usdc,
      outputAmount: parseUnits("49", 6),
      recipient: user.address,
      now: await f.latestTimestamp(f.origin),
    });
    const wallet = walletClientFor(f.origin, user);
    const amountMax = parseEther("49");
    await f.originClient.waitForTransactionReceipt({
      hash: await wallet.writeContract({
        address: contracts.undeclaredToken,
        abi: devnetErc20Abi,
        functionName: "approve",
        args: [contracts.userProxy, amountMax],
      }),
    });
    await assert.rejects(
      wallet.writeContract({
        address: contracts.userProxy,
        abi: userProxyAbi,
        functionName: "swapAndOpenV2",
        args: [contracts.undeclaredToken, amountMax, order],
      }),
      /InsufficientOutput/,
    );
  });

  it("a bridge deposit is released once on the destination, only by the relayer", async () => {
    const user = f.devnet.manifest.users[5]!;
    const recipient = f.devnet.manifest.users[6]!;
    const amount = parseUnits("25", 6);
    const wallet = walletClientFor(f.origin, user);
    await f.originClient.waitForTransactionReceipt({
      hash: await wallet.writeContract({
        address: f.origin.contracts.usdc,
        abi: devnetErc20Abi,
        functionName: "approve",
        args: [f.origin.contracts.bridge, amount],
      }),
    });
    const ref = `0x${"ab".repeat(32)}` as const;
    const depositReceipt = await f.originClient.waitForTransactionReceipt({
      hash: await wallet.writeContract({
        address: f.origin.contracts.bridge,
        abi: bridgeAbi,
        functionName: "deposit",
        args: [f.origin.contracts.usdc, amount, BigInt(f.destination.chainId), recipient.address, ref],
      }),
    });
    const deposited = decodeDepositedLogs(depositReceipt.logs);
    assert.equal(deposited.length, 1);
    const { depositId } = deposited[0]!.args;
    assert.equal(deposited[0]!.args.ref, ref);
    assert.equal(deposited[0]!.args.destinationChainId, BigInt(f.destination.chainId));

    const release = (account = f.devnet.manifest.relayer) =>
      walletClientFor(f.destination, account).writeContract({
        address: f.destination.contracts.bridge,
        abi: bridgeAbi,
        functionName: "release",
        args: [depositId, f.destination.contracts.usdc, recipient.address, amount],
      });
    await assert.rejects(release(user), /NotRelayer/);
    const before = await f.balanceOf(f.destination, f.destination.contracts.usdc, recipient.address);
    const releaseReceipt = await f.destinationClient.waitForTransactionReceipt({ hash: await release() });
    assert.deepEqual(
      decodeReleasedLogs(releaseReceipt.logs).map((log) => log.args.depositId),
      [depositId],
    );
    assert.equal(
      await f.balanceOf(f.destination, f.destination.contracts.usdc, recipient.address),
      before + amount,
    );
    await assert.rejects(release(), /AlreadyReleased/);
  });

  it("a native bridge deposit must carry its amount as value and is released from the destination's native liquidity", async () => {
    const user = f.devnet.manifest.users[5]!;
    const recipient = f.devnet.manifest.users[7]!;
    const amount = parseEther("3");
    const native = "0x0000000000000000000000000000000000000000";
    const wallet = walletClientFor(f.origin, user);
    const deposit = (value: bigint) =>
      wallet.writeContract({
        address: f.origin.contracts.bridge,
        abi: bridgeAbi,
        functionName: "deposit",
        args: [native, amount, BigInt(f.destination.chainId), recipient.address, `0x${"00".repeat(32)}`],
        value,
      });
    await assert.rejects(deposit(amount - 1n), /WrongNativeAmount/);
    const receipt = await f.originClient.waitForTransactionReceipt({ hash: await deposit(amount) });
    const { depositId, token } = decodeDepositedLogs(receipt.logs)[0]!.args;
    assert.equal(token, native);
    const before = await f.destinationClient.getBalance({ address: recipient.address });
    await f.destinationClient.waitForTransactionReceipt({
      hash: await walletClientFor(f.destination, f.devnet.manifest.relayer).writeContract({
        address: f.destination.contracts.bridge,
        abi: bridgeAbi,
        functionName: "release",
        args: [depositId, native, recipient.address, amount],
      }),
    });
    assert.equal(await f.destinationClient.getBalance({ address: recipient.address }), before + amount);
  });

  it("the devnet catalog passes the catalog schema and declares usdc, token and wrapped native but not the undeclared token", () => {
    const catalog = catalogSchema.parse(buildCatalog(f.devnet.manifest));
    assert.equal(catalog.families.evm.length, 2);
    for (const [i, chain] of catalog.families.evm.entries()) {
      const devnetChain = f.devnet.manifest.chains[i]!;
      assert.equal(chain.nativeKey, `eip155:${devnetChain.chainId}/slip44:60`);
      assert.equal(chain.inputSettlers.escrow, devnetChain.contracts.inputSettlerEscrow.toLowerCase());
      assert.equal(chain.inputOracle, devnetChain.contracts.committeeOracle.toLowerCase());
      assert.deepEqual(
        chain.assets.map((asset) => asset.symbol),
        ["USDC", "TKN", "WETH"],
      );
      assert.deepEqual(chain.assets[0]!.authorizations, ["permit2", "eip3009", "eip2612"]);
      assert.equal(
        chain.wrappedKey,
        `eip155:${devnetChain.chainId}/erc20:${devnetChain.contracts.wrappedNative.toLowerCase()}`,
      );
      const undeclared = devnetChain.contracts.undeclaredToken.toLowerCase();
      assert.ok(chain.assets.every((asset) => asset.address !== undeclared));
    }
  });

  it("startDevnetChains gives the same contract addresses and accounts on every start", async () => {
    const startedAt = performance.now();
    const again = await startDevnetChains();
    const elapsedMs = Math.round(performance.now() - startedAt);
    try {
      console.log(`startDevnetChains: two chains deployed and funded in ${elapsedMs} ms`);
      const strip = (m: typeof again.manifest) => ({
        ...m,
        chains: m.chains.map(({ rpcUrl: _rpcUrl, ...chain }) => chain),
      });
      assert.deepEqual(strip(again.manifest), strip(f.devnet.manifest));
      assert.notEqual(again.manifest.chains[0]!.rpcUrl, f.origin.rpcUrl);
    } finally {
      await again.stop();
    }
  });
  it("startDevnetChains listens on the rpcPorts it is given and mines on an interval when blockTimeSeconds is set", async () => {
    const ports = await Promise.all([freePort(), freePort()]);
    const interval = await startDevnetChains({ rpcPorts: ports, blockTimeSeconds: 1 });
    try {
      assert.deepEqual(
        interval.manifest.chains.map((chain) => chain.rpcUrl),
        ports.map((port) => `http://127.0.0.1:${port}`),
      );
      const client = publicClientFor(interval.manifest.chains[0]!);
      const start = await client.getBlockNumber();
      await pollUntil(
        "a block mined within 5 s of interval mining",
        async () => (await client.getBlockNumber()) !== start,
        { timeoutMs: 5000, intervalMs: 100 },
      );
    } finally {
      await interval.stop();
    }
  });
});
