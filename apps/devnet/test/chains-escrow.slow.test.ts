import assert from "node:assert/strict";
import { after, afterEach, before, beforeEach, describe, it } from "node:test";
import {
  addressToBytes32,
  attestationForOutputFilled,
  committeeOracleAbi,
  decodeFinalisedLogs,
  decodeOpenLogs,
  decodeOutputFilledLogs,
  decodeOutputProvenLogs,
  decodeRefundedLogs,
  devnetErc20Abi,
  devnetUsdcAbi,
  encodeEip3009OpenForSignature,
  encodePermit2OpenForSignature,
  inputSettlerEscrowAbi,
  orderIdentifier,
  outputSettlerAbi,
  PERMIT2_ADDRESS,
  permit2WitnessTypedData,
  receiveWithAuthorizationTypedData,
  type StandardOrder,
  signAttestation,
  submitAttestation,
} from "@hub/chain";
import { type Hex, maxUint256, parseSignature, parseUnits } from "viem";
import {
  type ChainsFixture,
  crossChainOrder,
  startChainsFixture,
  walletClientFor,
} from "./chains-fixture.js";

describe("devnet escrow, output settler and committee oracle", () => {
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

  const amount = parseUnits("100", 6);

  async function usdcOrder(
    overrides: Partial<Parameters<typeof crossChainOrder>[0]> = {},
  ): Promise<StandardOrder> {
    const user = f.devnet.manifest.users[0]!;
    return crossChainOrder({
      origin: f.origin,
      destination: f.destination,
      user: user.address,
      inputToken: f.origin.contracts.usdc,
      inputAmount: amount,
      outputToken: f.destination.contracts.usdc,
      outputAmount: parseUnits("99", 6),
      recipient: user.address,
      now: await f.latestTimestamp(f.origin),
      ...overrides,
    });
  }

  async function openWithPermit2(order: StandardOrder): Promise<Hex> {
    const user = f.devnet.manifest.users[0]!;
    const solver = f.devnet.manifest.solvers[0]!;
    const userWallet = walletClientFor(f.origin, user);
    await f.originClient.waitForTransactionReceipt({
      hash: await userWallet.writeContract({
        address: f.origin.contracts.usdc,
        abi: devnetErc20Abi,
        functionName: "approve",
        args: [PERMIT2_ADDRESS, maxUint256],
      }),
    });
    const signature = await userWallet.signTypedData(
      permit2WitnessTypedData({ order, escrow: f.origin.contracts.inputSettlerEscrow }),
    );
    const hash = await walletClientFor(f.origin, solver).writeContract({
      address: f.origin.contracts.inputSettlerEscrow,
      abi: inputSettlerEscrowAbi,
      functionName: "openFor",
      args: [order, user.address, encodePermit2OpenForSignature(signature)],
    });
    await f.originClient.waitForTransactionReceipt({ hash });
    return signature;
  }

  async function openSelf(order: StandardOrder): Promise<void> {
    const user = f.devnet.manifest.users[0]!;
    const wallet = walletClientFor(f.origin, user);
    await f.originClient.waitForTransactionReceipt({
      hash: await wallet.writeContract({
        address: f.origin.contracts.usdc,
        abi: devnetErc20Abi,
        functionName: "approve",
        args: [f.origin.contracts.inputSettlerEscrow, amount],
      }),
    });
    await f.originClient.waitForTransactionReceipt({
      hash: await wallet.writeContract({
        address: f.origin.contracts.inputSettlerEscrow,
        abi: inputSettlerEscrowAbi,
        functionName: "open",
        args: [order],
      }),
    });
  }

  it("the TypeScript orderIdentifier equals the escrow's orderIdentifier", async () => {
    const base = await usdcOrder();
    const variants: StandardOrder[] = [
      base,
      { ...base, nonce: 7n, expires: base.expires + 1 },
      { ...base, inputs: [] },
      {
        ...base,
        inputs: [
          [BigInt(f.origin.contracts.usdc), 1n],
          [BigInt(f.origin.contracts.token), 2n],
        ],
        outputs: [
          { ...base.outputs[0]!, callbackData: "0x1234", context: "0x00" },
          { ...base.outputs[0]!, amount: 5n, token: `0x${"0".repeat(64)}` },
        ],
      },
    ];
    for (const order of variants) {
      const onChain = await f.originClient.readContract({
        address: f.origin.contracts.inputSettlerEscrow,
        abi: inputSettlerEscrowAbi,
        functionName: "orderIdentifier",
        args: [order],
      });
      assert.equal(orderIdentifier(order, f.origin.chainId, f.origin.contracts.inputSettlerEscrow), onChain);
    }
  });

  it("a wallet-signed Permit2 batch witness opens the order through openFor: inputs move into escrow and Open is emitted", async () => {
    const user = f.devnet.manifest.users[0]!;
    const order = await usdcOrder();
    const orderId = orderIdentifier(order, f.origin.chainId, f.origin.contracts.inputSettlerEscrow);
    const before = await f.balanceOf(f.origin, f.origin.contracts.usdc, user.address);
    const fromBlock = await f.originClient.getBlockNumber();
    await openWithPermit2(order);
    assert.equal(await f.balanceOf(f.origin, f.origin.contracts.usdc, user.address), before - amount);
    assert.equal(
      await f.balanceOf(f.origin, f.origin.contracts.usdc, f.origin.contracts.inputSettlerEscrow),
      amount,
    );
    const logs = decodeOpenLogs(
      await f.originClient.getLogs({ address: f.origin.contracts.inputSettlerEscrow, fromBlock }),
    );
    assert.equal(logs.length, 1);
    assert.equal(logs[0]!.args.orderId, orderId);
    assert.equal(logs[0]!.args.order.user, user.address);
    assert.deepEqual(logs[0]!.args.order.inputs, order.inputs);
    const status = await f.originClient.readContract({
      address: f.origin.contracts.inputSettlerEscrow,
      abi: inputSettlerEscrowAbi,
      functionName: "orderStatus",
      args: [orderId],
    });
    assert.equal(status, 1);
  });

  it("a replayed Permit2 openFor reverts and a signature over another order is refused", async () => {
    const user = f.devnet.manifest.users[0]!;
    const solverWallet = walletClientFor(f.origin, f.devnet.manifest.solvers[0]!);
    const order = await usdcOrder();
    const signature = await openWithPermit2(order);
    await assert.rejects(
      solverWallet.writeContract({
        address: f.origin.contracts.inputSettlerEscrow,
        abi: inputSettlerEscrowAbi,
        functionName: "openFor",
        args: [order, user.address, encodePermit2OpenForSignature(signature)],
      }),
      /InvalidOrderStatus/,
    );
    const tampered: StandardOrder = {
      ...order,
      nonce: order.nonce + 1n,
      outputs: [{ ...order.outputs[0]!, amount: 1n }],
    };
    await assert.rejects(
      solverWallet.writeContract({
        address: f.origin.contracts.inputSettlerEscrow,
        abi: inputSettlerEscrowAbi,
        functionName: "openFor",
        args: [tampered, user.address, encodePermit2OpenForSignature(signature)],
      }),
      /InvalidSigner/,
    );
  });

  it("an EIP-3009 ReceiveWithAuthorization (nonce = order id) opens the order through openFor and cannot be replayed", async () => {
    const user = f.devnet.manifest.users[0]!;
    const solverWallet = walletClientFor(f.origin, f.devnet.manifest.solvers[0]!);
    const order = await usdcOrder();
    const orderId = orderIdentifier(order, f.origin.chainId, f.origin.contracts.inputSettlerEscrow);
    const signature = await walletClientFor(f.origin, user).signTypedData(
      receiveWithAuthorizationTypedData({
        token: { address: f.origin.contracts.usdc, name: "USD Coin", version: "2" },
        chainId: f.origin.chainId,
        from: user.address,
        to: f.origin.contracts.inputSettlerEscrow,
        value: amount,
        validBefore: BigInt(order.fillDeadline),
        nonce: orderId,
      }),
    );
    const before = await f.balanceOf(f.origin, f.origin.contracts.usdc, user.address);
    const fromBlock = await f.originClient.getBlockNumber();
    const args = [order, user.address, encodeEip3009OpenForSignature(signature)] as const;
    await f.originClient.waitForTransactionReceipt({
      hash: await solverWallet.writeContract({
        address: f.origin.contracts.inputSettlerEscrow,
        abi: inputSettlerEscrowAbi,
        functionName: "openFor",
        args,
      }),
    });
    assert.equal(await f.balanceOf(f.origin, f.origin.contracts.usdc, user.address), before - amount);
    assert.equal(
      await f.balanceOf(f.origin, f.origin.contracts.usdc, f.origin.contracts.inputSettlerEscrow),
      amount,
    );
    const logs = decodeOpenLogs(
      await f.originClient.getLogs({ address: f.origin.contracts.inputSettlerEscrow, fromBlock }),
    );
    assert.deepEqual(
      logs.map((log) => log.args.orderId),
      [orderId],
    );
    await assert.rejects(
      solverWallet.writeContract({
        address: f.origin.contracts.inputSettlerEscrow,
        abi: inputSettlerEscrowAbi,
        functionName: "openFor",
        args,
      }),
      /InvalidOrderStatus/,
    );
  });

  it("refund reverts before expires and afterwards pays the inputs only to order.user", async () => {
    const user = f.devnet.manifest.users[0]!;
    const stranger = f.devnet.manifest.solvers[1]!;
    const order = await usdcOrder();
    await openSelf(order);
    const strangerWallet = walletClientFor(f.origin, stranger);
    const refund = () =>
      strangerWallet.writeContract({
        address: f.origin.contracts.inputSettlerEscrow,
        abi: inputSettlerEscrowAbi,
        functionName: "refund",
        args: [order],
      });
    await assert.rejects(refund(), /TimestampNotPassed/);
    await f.increaseTime(f.origin, order.expires - (await f.latestTimestamp(f.origin)) + 1);
    const userBefore = await f.balanceOf(f.origin, f.origin.contracts.usdc, user.address);
    const strangerBefore = await f.balanceOf(f.origin, f.origin.contracts.usdc, stranger.address);
    const receipt = await f.originClient.waitForTransactionReceipt({ hash: await refund() });
    assert.equal(await f.balanceOf(f.origin, f.origin.contracts.usdc, user.address), userBefore + amount);
    assert.equal(await f.balanceOf(f.origin, f.origin.contracts.usdc, stranger.address), strangerBefore);
    assert.deepEqual(
      decodeRefundedLogs(receipt.logs).map((log) => log.args.orderId),
      [orderIdentifier(order, f.origin.chainId, f.origin.contracts.inputSettlerEscrow)],
    );
    await assert.rejects(refund(), /InvalidOrderStatus/);
  });

  it("a fill pays the recipient once: a repeated fill returns the first record without a second payment", async () => {
    const user = f.devnet.manifest.users[1]!;
    const solver = f.devnet.manifest.solvers[0]!;
    const order = await usdcOrder({ recipient: user.address });
    const orderId = orderIdentifier(order, f.origin.chainId, f.origin.contracts.inputSettlerEscrow);
    const output = order.outputs[0]!;
    const wallet = walletClientFor(f.destination, solver);
    const fill = () =>
      wallet.writeContract({
        address: f.destination.contracts.outputSettler,
        abi: outputSettlerAbi,
        functionName: "fill",
        args: [orderId, output, order.fillDeadline, addressToBytes32(solver.address)],
      });
    const before = await f.balanceOf(f.destination, f.destination.contracts.usdc, user.address);
    const first = await f.destinationClient.waitForTransactionReceipt({ hash: await fill() });
    assert.equal(decodeOutputFilledLogs(first.logs).length, 1);
    const record = await f.destinationClient.readContract({
      address: f.destination.contracts.outputSettler,
      abi: outputSettlerAbi,
      functionName: "getFillRecord",
      args: [orderId, output],
    });
    const second = await f.destinationClient.waitForTransactionReceipt({ hash: await fill() });
    assert.equal(second.status, "success");
    assert.equal(decodeOutputFilledLogs(second.logs).length, 0);
    assert.equal(
      await f.balanceOf(f.destination, f.destination.contracts.usdc, user.address),
      before + output.amount,
    );
    const { result } = await f.destinationClient.simulateContract({
      account: solver.address,
      address: f.destination.contracts.outputSettler,
      abi: outputSettlerAbi,
      functionName: "fill",
      args: [orderId, output, order.fillDeadline, addressToBytes32(solver.address)],
    });
    assert.equal(result, record);
  });

  it("a fill after its deadline, on the wrong chain or through another settler reverts", async () => {
    const solver = f.devnet.manifest.solvers[0]!;
    const order = await usdcOrder();
    const orderId = orderIdentifier(order, f.origin.chainId, f.origin.contracts.inputSettlerEscrow);
    const output = order.outputs[0]!;
    const now = await f.latestTimestamp(f.destination);
    const fill = (chain: typeof f.origin, args: Parameters<typeof outputFillArgs>[0]) =>
      walletClientFor(chain, solver).writeContract({
        address: chain.contracts.outputSettler,
        abi: outputSettlerAbi,
        functionName: "fill",
        args: outputFillArgs(args),
      });
    const outputFillArgs = (a: { output: typeof output; deadline: number }) =>
      [orderId, a.output, a.deadline, addressToBytes32(solver.address)] as const;
    await assert.rejects(fill(f.destination, { output, deadline: now - 10 }), /FillDeadline/);
    await assert.rejects(fill(f.origin, { output, deadline: order.fillDeadline }), /WrongChain/);
    await assert.rejects(
      fill(f.destination, {
        output: { ...output, settler: addressToBytes32(f.destination.contracts.bridge) },
        deadline: order.fillDeadline,
      }),
      /WrongOutputSettler/,
    );
  });

  it("finalise reverts without a committee proof, and with threshold signatures it pays the solver", async () => {
    const { solvers, committee } = f.devnet.manifest;
    const solver = solvers[0]!;
    const order = await usdcOrder();
    await openWithPermit2(order);
    const orderId = orderIdentifier(order, f.origin.chainId, f.origin.contracts.inputSettlerEscrow);
    const fillReceipt = await f.destinationClient.waitForTransactionReceipt({
      hash: await walletClientFor(f.destination, solver).writeContract({
        address: f.destination.contracts.outputSettler,
        abi: outputSettlerAbi,
        functionName: "fill",
        args: [orderId, order.outputs[0]!, order.fillDeadline, addressToBytes32(solver.address)],
      }),
    });
    const filled = decodeOutputFilledLogs(fillReceipt.logs)[0]!;
    const solverWallet = walletClientFor(f.origin, solver);
    const finalise = (from = solverWallet) =>
      from.writeContract({
        address: f.origin.contracts.inputSettlerEscrow,
        abi: inputSettlerEscrowAbi,
        functionName: "finalise",
        args: [
          order,
          [{ timestamp: filled.args.timestamp, solver: filled.args.solver }],
          addressToBytes32(solver.address),
          "0x",
        ],
      });
    await assert.rejects(finalise(), /NotProven/);

    const attestation = attestationForOutputFilled(filled);
    const sign = (memberIndex: number) =>
      signAttestation({
        privateKey: committee.members[memberIndex]!.privateKey,
        oracle: f.origin.contracts.committeeOracle,
        chainId: f.origin.chainId,
        attestation,
      });
    const relayer = walletClientFor(f.origin, f.devnet.manifest.relayer);
    await assert.rejects(
      submitAttestation(relayer, {
        oracle: f.origin.contracts.committeeOracle,
        attestation,
        signatures: [await sign(0)],
      }),
      /BelowThreshold/,
    );
    const proofReceipt = await f.originClient.waitForTransactionReceipt({
      hash: await submitAttestation(relayer, {
        oracle: f.origin.contracts.committeeOracle,
        attestation,
        signatures: [await sign(2), await sign(0)],
      }),
    });
    assert.equal(decodeOutputProvenLogs(proofReceipt.logs)[0]?.args.payloadHash, attestation.payloadHash);
    assert.equal(
      await f.originClient.readContract({
        address: f.origin.contracts.committeeOracle,
        abi: committeeOracleAbi,
        functionName: "isProven",
        args: [
          attestation.remoteChainId,
          attestation.remoteOracle,
          attestation.application,
          attestation.payloadHash,
        ],
      }),
      true,
    );

    await assert.rejects(finalise(walletClientFor(f.origin, solvers[1]!)), /NotOrderOwner/);
    const before = await f.balanceOf(f.origin, f.origin.contracts.usdc, solver.address);
    const receipt = await f.originClient.waitForTransactionReceipt({ hash: await finalise() });
    assert.equal(await f.balanceOf(f.origin, f.origin.contracts.usdc, solver.address), before + amount);
    assert.equal(
      await f.balanceOf(f.origin, f.origin.contracts.usdc, f.origin.contracts.inputSettlerEscrow),
      0n,
    );
    const finalised = decodeFinalisedLogs(receipt.logs);
    assert.equal(finalised[0]?.args.orderId, orderId);
    assert.equal(finalised[0]?.args.solver, addressToBytes32(solver.address));
    await assert.rejects(finalise(), /InvalidOrderStatus/);
  });

  it("finalise refuses a fill proven with a timestamp after the fill deadline", async () => {
    const { solvers, committee } = f.devnet.manifest;
    const solver = solvers[0]!;
    const order = await usdcOrder({ fillDeadlineSeconds: 60 });
    await openSelf(order);
    const orderId = orderIdentifier(order, f.origin.chainId, f.origin.contracts.inputSettlerEscrow);
    const lateTimestamp = order.fillDeadline + 1;
    const attestation = attestationForOutputFilled({
      address: f.destination.contracts.outputSettler,
      args: {
        orderId,
        solver: addressToBytes32(solver.address),
        timestamp: lateTimestamp,
        output: order.outputs[0]!,
      },
    });
    const signatures = await Promise.all(
      [0, 1].map((i) =>
        signAttestation({
          privateKey: committee.members[i]!.privateKey,
          oracle: f.origin.contracts.committeeOracle,
          chainId: f.origin.chainId,
          attestation,
        }),
      ),
    );
    const solverWallet = walletClientFor(f.origin, solver);
    await f.originClient.waitForTransactionReceipt({
      hash: await submitAttestation(solverWallet, {
        oracle: f.origin.contracts.committeeOracle,
        attestation,
        signatures,
      }),
    });
    await assert.rejects(
      solverWallet.writeContract({
        address: f.origin.contracts.inputSettlerEscrow,
        abi: inputSettlerEscrowAbi,
        functionName: "finalise",
        args: [
          order,
          [{ timestamp: lateTimestamp, solver: addressToBytes32(solver.address) }],
          addressToBytes32(solver.address),
          "0x",
        ],
      }),
      /FilledTooLate/,
    );
  });
  it("a USDC EIP-2612 permit signed by the owner sets the allowance and cannot be replayed", async () => {
    const owner = f.devnet.manifest.users[2]!;
    const spender = f.origin.contracts.inputSettlerEscrow;
    const deadline = BigInt((await f.latestTimestamp(f.origin)) + 600);
    const signature = await walletClientFor(f.origin, owner).signTypedData({
      domain: {
        name: "USD Coin",
        version: "2",
        chainId: f.origin.chainId,
        verifyingContract: f.origin.contracts.usdc,
      },
      types: {
        Permit: [
          { name: "owner", type: "address" },
          { name: "spender", type: "address" },
          { name: "value", type: "uint256" },
          { name: "nonce", type: "uint256" },
          { name: "deadline", type: "uint256" },
        ],
      },
      primaryType: "Permit",
      message: { owner: owner.address, spender, value: amount, nonce: 0n, deadline },
    });
    const { r, s, v } = parseSignature(signature);
    const relayerWallet = walletClientFor(f.origin, f.devnet.manifest.relayer);
    const permit = () =>
      relayerWallet.writeContract({
        address: f.origin.contracts.usdc,
        abi: devnetUsdcAbi,
        functionName: "permit",
        args: [owner.address, spender, amount, deadline, Number(v), r, s],
      });
    await f.originClient.waitForTransactionReceipt({ hash: await permit() });
    assert.equal(
      await f.originClient.readContract({
        address: f.origin.contracts.usdc,
        abi: devnetUsdcAbi,
        functionName: "allowance",
        args: [owner.address, spender],
      }),
      amount,
    );
    await assert.rejects(permit(), /InvalidSignature/);
  });
});
