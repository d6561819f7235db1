import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { after, before, describe, test } from "node:test";
import {
  addressToBytes32,
  committeeOracleAbi,
  fillDescriptionHash,
  inputSettlerEscrowAbi,
  orderIdentifier,
  outputSettlerAbi,
  type StandardOrder,
} from "@hub/chain";
import { systemClock } from "@hub/clock";
import { pollUntil } from "@hub/test-support";
import { pino } from "pino";
import { toFunctionSelector } from "viem";
import { createCommittee, type ObservedFill } from "../src/committee/create-committee.js";
import { approve, balanceOf, mined, startTestDevnet, type TestDevnet } from "./devnet-test-kit.js";

describe("attestation committee", () => {
  let devnet: TestDevnet;
  before(async () => {
    devnet = await startTestDevnet({ committeeDelayMs: 0 });
  });
  after(async () => devnet.stop());

  test("the committee proves a fill on the origin chain's oracle only after its delay, and finalise then pays the filler", async (t) => {
    const { manifest, clients } = devnet;
    const [origin, destination] = manifest.chains;
    const user = manifest.users[0]!;
    const filler = manifest.users[1]!;
    const delayMs = 1500;
    assert.equal((await devnet.call("PUT", "/control/committee/delay", { delayMs })).status, 200);

    const now = Math.floor(Date.now() / 1000);
    const order: StandardOrder = {
      user: user.address,
      nonce: BigInt(`0x${randomBytes(8).toString("hex")}`),
      originChainId: BigInt(origin!.chainId),
      expires: now + 3600,
      fillDeadline: now + 1800,
      inputOracle: origin!.contracts.committeeOracle,
      inputs: [[BigInt(origin!.contracts.usdc), 1_000_000n]],
      outputs: [
        {
          oracle: addressToBytes32(destination!.contracts.committeeOracle),
          settler: addressToBytes32(destination!.contracts.outputSettler),
          chainId: BigInt(destination!.chainId),
          token: addressToBytes32(destination!.contracts.usdc),
          amount: 990_000n,
          recipient: addressToBytes32(user.address),
          callbackData: "0x",
          context: "0x",
        },
      ],
    };
    const orderId = orderIdentifier(order, origin!.chainId, origin!.contracts.inputSettlerEscrow);
    const originClient = clients.get(origin!.chainId);
    const destinationClient = clients.get(destination!.chainId);

    await approve(
      clients,
      origin!.chainId,
      user,
      origin!.contracts.usdc,
      origin!.contracts.inputSettlerEscrow,
    );
    await mined(
      clients,
      origin!.chainId,
      await originClient.wallet(user).writeContract({
        address: origin!.contracts.inputSettlerEscrow,
        abi: inputSettlerEscrowAbi,
        functionName: "open",
        args: [order],
      }),
    );

    await approve(
      clients,
      destination!.chainId,
      filler,
      destination!.contracts.usdc,
      destination!.contracts.outputSettler,
    );
    const solver = addressToBytes32(filler.address);
    const fillSentAt = Date.now();
    const fill = await mined(
      clients,
      destination!.chainId,
      await destinationClient.wallet(filler).writeContract({
        address: destination!.contracts.outputSettler,
        abi: outputSettlerAbi,
        functionName: "fill",
        args: [orderId, order.outputs[0]!, order.fillDeadline, solver],
      }),
    );
    const fillTimestamp = Number(
      (await destinationClient.publicClient.getBlock({ blockNumber: fill.blockNumber })).timestamp,
    );
    const output = order.outputs[0]!;
    const payloadHash = fillDescriptionHash({ solver, orderId, timestamp: fillTimestamp, output });
    const isProven = () =>
      originClient.publicClient.readContract({
        address: origin!.contracts.committeeOracle,
        abi: committeeOracleAbi,
        functionName: "isProven",
        args: [output.chainId, output.oracle, output.settler, payloadHash],
      });
    const finalise = {
      address: origin!.contracts.inputSettlerEscrow,
      abi: inputSettlerEscrowAbi,
      functionName: "finalise",
      args: [order, [{ timestamp: fillTimestamp, solver }], solver, "0x"],
      account: originClient.wallet(filler).account,
    } as const;

    // Every read is checked against the guarantee: a read that answers "proven" must end at least the
    // delay after the fill was sent. On a busy machine the first reads may already come that late.
    const tooEarly = (answeredAt: number) => answeredAt - fillSentAt < delayMs;
    try {
      await originClient.publicClient.simulateContract(finalise);
      assert.ok(!tooEarly(Date.now()), "finalise would pass before the delay");
    } catch (error) {
      // The oracle's NotProven() bubbles up through the escrow, whose ABI does not name it.
      assert.ok((error as Error).message.includes(toFunctionSelector("NotProven()")), String(error));
    }
    let unprovenReads = 0;
    await pollUntil(
      "the attestation",
      async () => {
        const proven = await isProven();
        if (!proven) unprovenReads++;
        return proven || undefined;
      },
      { timeoutMs: 15_000 },
    );
    const provenAt = Date.now();
    assert.ok(!tooEarly(provenAt), `proven ${provenAt - fillSentAt} ms after the fill`);
    t.diagnostic(`${unprovenReads} reads saw the fill unproven; proven ${provenAt - fillSentAt} ms after it`);

    // The committee marks the fill proven once it has read its attestation's receipt, which can come a
    // poll after the oracle already answers proven: its view is read until the fill leaves "waiting".
    const seen = await pollUntil(
      "the committee's view of the fill",
      async () => {
        const view = await devnet.call<{ fills: ObservedFill[] }>("GET", "/control/committee");
        const fill = view.body.fills.find((entry) => entry.orderId === orderId);
        return fill?.state === "waiting" ? undefined : fill;
      },
      { timeoutMs: 15_000 },
    );
    assert.equal(seen?.state, "proven");
    assert.equal(seen?.originChainId, origin!.chainId);
    assert.match(seen?.attestationTxHash ?? "", /^0x[0-9a-f]{64}$/);

    const before = await balanceOf(clients, origin!.chainId, origin!.contracts.usdc, filler.address);
    const { request } = await originClient.publicClient.simulateContract(finalise);
    await mined(clients, origin!.chainId, await originClient.wallet(filler).writeContract(request));
    const after = await balanceOf(clients, origin!.chainId, origin!.contracts.usdc, filler.address);
    assert.equal(after - before, 1_000_000n);
  });

  test("a raised delay holds a fill unattested until the delay is lowered", async () => {
    const { manifest, clients } = devnet;
    const [origin, destination] = manifest.chains;
    const user = manifest.users[2]!;
    await devnet.call("PUT", "/control/committee/delay", { delayMs: 3_600_000 });

    const now = Math.floor(Date.now() / 1000);
    const order: StandardOrder = {
      user: user.address,
      nonce: BigInt(`0x${randomBytes(8).toString("hex")}`),
      originChainId: BigInt(destination!.chainId),
      expires: now + 3600,
      fillDeadline: now + 1800,
      inputOracle: destination!.contracts.committeeOracle,
      inputs: [[BigInt(destination!.contracts.token), 10n ** 18n]],
      outputs: [
        {
          oracle: addressToBytes32(origin!.contracts.committeeOracle),
          settler: addressToBytes32(origin!.contracts.outputSettler),
          chainId: BigInt(origin!.chainId),
          token: addressToBytes32(origin!.contracts.token),
          amount: 10n ** 18n,
          recipient: addressToBytes32(user.address),
          callbackData: "0x",
          context: "0x",
        },
      ],
    };
    const orderId = orderIdentifier(order, destination!.chainId, destination!.contracts.inputSettlerEscrow);
    await approve(
      clients,
      destination!.chainId,
      user,
      destination!.contracts.token,
      destination!.contracts.inputSettlerEscrow,
    );
    await mined(
      clients,
      destination!.chainId,
      await clients
        .get(destination!.chainId)
        .wallet(user)
        .writeContract({
          address: destination!.contracts.inputSettlerEscrow,
          abi: inputSettlerEscrowAbi,
          functionName: "open",
          args: [order],
        }),
    );
    await approve(clients, origin!.chainId, user, origin!.contracts.token, origin!.contracts.outputSettler);
    await mined(
      clients,
      origin!.chainId,
      await clients
        .get(origin!.chainId)
        .wallet(user)
        .writeContract({
          address: origin!.contracts.outputSettler,
          abi: outputSettlerAbi,
          functionName: "fill",
          args: [orderId, order.outputs[0]!, order.fillDeadline, addressToBytes32(user.address)],
        }),
    );

    const waiting = await pollUntil("the committee to see the fill", async () => {
      const view = await devnet.call<{ fills: ObservedFill[] }>("GET", "/control/committee");
      return view.body.fills.find((entry) => entry.orderId === orderId);
    });
    assert.equal(waiting.state, "waiting");

    await devnet.call("PUT", "/control/committee/delay", { delayMs: 0 });
    const proven = await pollUntil("the attestation after lowering the delay", async () => {
      const view = await devnet.call<{ fills: ObservedFill[] }>("GET", "/control/committee");
      const entry = view.body.fills.find((candidate) => candidate.orderId === orderId);
      return entry?.state === "proven" ? entry : undefined;
    });
    assert.equal(proven.originChainId, destination!.chainId);
  });

  test("a fill seen before its order is opened is attested once the Open appears", async () => {
    const { manifest, clients } = devnet;
    const [origin, destination] = manifest.chains;
    const user = manifest.users[3]!;
    await devnet.call("PUT", "/control/committee/delay", { delayMs: 0 });
    const now = Math.floor(Date.now() / 1000);
    const order: StandardOrder = {
      user: user.address,
      nonce: BigInt(`0x${randomBytes(8).toString("hex")}`),
      originChainId: BigInt(origin!.chainId),
      expires: now + 3600,
      fillDeadline: now + 1800,
      inputOracle: origin!.contracts.committeeOracle,
      inputs: [[BigInt(origin!.contracts.usdc), 300_000n]],
      outputs: [
        {
          oracle: addressToBytes32(destination!.contracts.committeeOracle),
          settler: addressToBytes32(destination!.contracts.outputSettler),
          chainId: BigInt(destination!.chainId),
          token: addressToBytes32(destination!.contracts.usdc),
          amount: 300_000n,
          recipient: addressToBytes32(user.address),
          callbackData: "0x",
          context: "0x",
        },
      ],
    };
    const orderId = orderIdentifier(order, origin!.chainId, origin!.contracts.inputSettlerEscrow);
    await approve(
      clients,
      destination!.chainId,
      user,
      destination!.contracts.usdc,
      destination!.contracts.outputSettler,
    );
    await mined(
      clients,
      destination!.chainId,
      await clients
        .get(destination!.chainId)
        .wallet(user)
        .writeContract({
          address: destination!.contracts.outputSettler,
          abi: outputSettlerAbi,
          functionName: "fill",
          args: [orderId, order.outputs[0]!, order.fillDeadline, addressToBytes32(user.address)],
        }),
    );
    const awaiting = await pollUntil("the committee to see the early fill", async () => {
      const view = await devnet.call<{ fills: ObservedFill[] }>("GET", "/control/committee");
      return view.body.fills.find((entry) => entry.orderId === orderId && entry.originChainId === undefined);
    });
    assert.equal(awaiting.state, "waiting");

    await approve(
      clients,
      origin!.chainId,
      user,
      origin!.contracts.usdc,
      origin!.contracts.inputSettlerEscrow,
    );
    await mined(
      clients,
      origin!.chainId,
      await clients
        .get(origin!.chainId)
        .wallet(user)
        .writeContract({
          address: origin!.contracts.inputSettlerEscrow,
          abi: inputSettlerEscrowAbi,
          functionName: "open",
          args: [order],
        }),
    );
    const proven = await pollUntil("the attestation after the Open", async () => {
      const view = await devnet.call<{ fills: ObservedFill[] }>("GET", "/control/committee");
      const entry = view.body.fills.find((candidate) => candidate.orderId === orderId);
      return entry?.state === "proven" ? entry : undefined;
    });
    assert.equal(proven.originChainId, origin!.chainId);
  });

  test("a committee restarted over the same chains rescans and submits no attestation the oracle already holds", async () => {
    const before = await devnet.call<{ fills: ObservedFill[] }>("GET", "/control/committee");
    const proven = before.body.fills.filter((fill) => fill.state === "proven");
    assert.ok(proven.length >= 3, "the earlier tests left proven fills");
    const restarted = createCommittee(
      { manifest: devnet.manifest, delayMs: 0, pollIntervalMs: 25 },
      { clients: devnet.clients, clock: systemClock, logger: pino({ level: "silent" }) },
    );
    restarted.start();
    try {
      const fills = await pollUntil("the restarted committee to settle every earlier fill", async () => {
        const seen = restarted.fills();
        return proven.every((old) =>
          seen.some((fill) => fill.orderId === old.orderId && fill.state === "proven"),
        )
          ? seen
          : undefined;
      });
      for (const fill of fills)
        assert.equal(fill.attestationTxHash, undefined, `re-attested ${fill.orderId}`);
    } finally {
      await restarted.stop();
    }
  });
});
