import assert from "node:assert/strict";
import { after, afterEach, before, describe, test } from "node:test";
import {
  addressToBytes32,
  type DevnetAccount,
  type DevnetSolanaAccount,
  encodeSolanaInteropAddress,
  outputSettlerAbi,
  solanaEscrowOrderId,
  solanaKeyToBytes32,
  solanaMessageDigest,
  solanaOutputHash,
} from "@hub/chain";
import { pollUntil } from "@hub/test-support";
import {
  type Address,
  address,
  createKeyPairSignerFromBytes,
  getBase58Encoder,
  getCompiledTransactionMessageDecoder,
  type KeyPairSigner,
  signBytes,
} from "@solana/kit";
import { findAssociatedTokenPda, TOKEN_PROGRAM_ADDRESS } from "@solana-program/token";
import { parseUnits } from "viem";
import { encodeInteropAddress } from "../src/aggregator/interop-address.js";
import type { OrderResponse } from "../src/aggregator/oif-order.js";
import { type QuoteResponse, type QuotesResponse, quoteResponseSchema } from "../src/aggregator/oif-quote.js";
import { approve, balanceOf, mined, startTestDevnet, type TestDevnet } from "./devnet-test-kit.js";

type SvmQuote = QuoteResponse & { order: { type: "oif-svm-escrow-v0" } };

function svm(quote: QuoteResponse): Extract<QuoteResponse["order"], { type: "oif-svm-escrow-v0" }> {
  assert.equal(quote.order.type, "oif-svm-escrow-v0");
  return quote.order as SvmQuote["order"];
}

async function signerOf(account: DevnetSolanaAccount): Promise<KeyPairSigner> {
  return createKeyPairSignerFromBytes(getBase58Encoder().encode(account.secretKey));
}

/** The 97-byte envelope a wallet hands the hub: 0x00, the Ed25519 signature, the public key. */
async function envelope(signer: KeyPairSigner, message: Uint8Array, prefix = 0): Promise<string> {
  const signature = await signBytes(signer.keyPair.privateKey, message);
  return Buffer.concat([
    Buffer.from([prefix]),
    Buffer.from(signature),
    Buffer.from(getBase58Encoder().encode(signer.address)),
  ]).toString("base64");
}

describe("Solana → EVM orders (oif-svm-escrow-v0)", () => {
  let devnet: TestDevnet;
  before(async () => {
    devnet = await startTestDevnet({ committeeDelayMs: 100 });
  });
  afterEach(async () => {
    await devnet.call("DELETE", "/control/faults");
  });
  after(async () => devnet.stop());

  const solana = () => devnet.manifest.solana!;
  const mint = () => address(solana().tokens[0]!.mint);
  const destination = () => devnet.manifest.chains[1]!;

  async function tokenAccount(owner: string): Promise<Address> {
    const [ata] = await findAssociatedTokenPda({
      owner: address(owner),
      mint: mint(),
      tokenProgram: TOKEN_PROGRAM_ADDRESS,
    });
    return ata;
  }

  async function splBalance(owner: string): Promise<bigint> {
    return BigInt(devnet.solana.chain.tokenAmount(await tokenAccount(owner))?.amount ?? "0");
  }

  function quoteRequest(
    user: DevnetSolanaAccount,
    recipient: DevnetAccount,
    swap: { swapType: "exact-input" | "exact-output"; amount: bigint },
  ) {
    const { genesisHash } = solana();
    const userAddress = encodeSolanaInteropAddress(genesisHash, user.address);
    const exactOutput = swap.swapType === "exact-output";
    return {
      user: userAddress,
      intent: {
        intentType: "oif-swap",
        inputs: [
          {
            user: userAddress,
            asset: encodeSolanaInteropAddress(genesisHash, mint()),
            ...(exactOutput ? {} : { amount: swap.amount.toString() }),
          },
        ],
        outputs: [
          {
            receiver: encodeInteropAddress(destination().chainId, recipient.address),
            asset: encodeInteropAddress(destination().chainId, destination().contracts.usdc),
            ...(exactOutput ? { amount: swap.amount.toString() } : {}),
          },
        ],
        swapType: swap.swapType,
        originSubmission: { mode: "user", schemes: ["ed25519"] },
      },
      supportedTypes: ["oif-svm-escrow-v0"],
    };
  }

  async function quoteFrom(solverId: string, request: object): Promise<QuoteResponse> {
    const answer = await devnet.call<QuotesResponse>("POST", "/aggregator/api/v1/quotes", {
      ...request,
      solverOptions: { includeSolvers: [solverId] },
    });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    const quote = answer.body.quotes[0]!;
    quoteResponseSchema.parse(quote);
    return quote;
  }

  async function followTo(orderId: string, done: (status: unknown) => boolean): Promise<OrderResponse> {
    return pollUntil(
      `order ${orderId} reaches its final status`,
      async () => {
        const read = await devnet.call<OrderResponse>("GET", `/aggregator/api/v1/orders/${orderId}`);
        assert.equal(read.status, 200, JSON.stringify(read.body));
        return done(read.body.status) ? read.body : undefined;
      },
      { timeoutMs: 60_000, intervalMs: 100 },
    );
  }

  test("a quote is the deposit message with the solver as fee payer, the escrow order and the EVM output the contract names", async () => {
    const user = solana().users[0]!;
    const recipient = devnet.manifest.users[0]!;
    const amountIn = parseUnits("25", 6);
    for (const [index, solverId, spreadBps] of [
      [0, "alpha", 30n],
      [1, "beta", 50n],
    ] as const) {
      const quote = await quoteFrom(
        solverId,
        quoteRequest(user, recipient, { swapType: "exact-input", amount: amountIn }),
      );
      const { payload } = svm(quote);
      const message = Buffer.from(payload.transactionMessage, "base64");
      assert.equal(payload.signatureType, "ed25519");
      assert.equal(payload.sender, user.address);
      assert.equal(payload.feePayer, solana().solvers[index]!.address);
      assert.equal(payload.digest, solanaMessageDigest(message));
      const expectedOut = (amountIn * (10_000n - spreadBps)) / 10_000n;
      assert.deepEqual(payload.output, {
        oracle: addressToBytes32(destination().contracts.committeeOracle),
        settler: addressToBytes32(destination().contracts.outputSettler),
        chainId: String(destination().chainId),
        token: addressToBytes32(destination().contracts.usdc),
        amount: expectedOut.toString(),
        recipient: addressToBytes32(recipient.address),
        callbackData: "0x",
        context: "0x",
      });
      const { escrowOrder } = payload;
      assert.equal(escrowOrder.user, user.address);
      assert.equal(escrowOrder.mint, mint());
      assert.equal(escrowOrder.amount, amountIn.toString());
      assert.ok(payload.fillDeadline <= escrowOrder.expires && quote.validUntil! <= payload.fillDeadline);
      assert.equal(
        escrowOrder.outputHash,
        solanaOutputHash(payload.fillDeadline, {
          ...payload.output,
          chainId: BigInt(payload.output.chainId),
          amount: BigInt(payload.output.amount),
        } as Parameters<typeof solanaOutputHash>[1]),
      );
      assert.equal(
        escrowOrder.orderId,
        solanaEscrowOrderId({
          ...escrowOrder,
          amount: BigInt(escrowOrder.amount),
          nonce: BigInt(escrowOrder.nonce),
        } as Parameters<typeof solanaEscrowOrderId>[0]),
      );
      assert.equal(await devnet.solana.escrow.state(escrowOrder.orderId), "awaiting-deposit");
      const compiled = getCompiledTransactionMessageDecoder().decode(message);
      assert.equal(compiled.version, 0);
      assert.equal(compiled.header.numSignerAccounts, 2);
      assert.deepEqual(compiled.staticAccounts.slice(0, 2), [payload.feePayer, payload.sender]);
      assert.ok(devnet.solana.chain.isBlockhashValid(compiled.lifetimeToken));
      assert.equal(compiled.instructions.length, 2);
      assert.equal(
        Buffer.from(compiled.instructions[1]!.data!).toString("utf8"),
        escrowOrder.orderId,
        "the memo carries the order id",
      );
      assert.deepEqual(quote.preview, {
        inputs: [
          {
            user: encodeSolanaInteropAddress(solana().genesisHash, user.address),
            asset: encodeSolanaInteropAddress(solana().genesisHash, mint()),
            amount: amountIn.toString(),
          },
        ],
        outputs: [
          {
            receiver: encodeInteropAddress(destination().chainId, recipient.address),
            asset: encodeInteropAddress(destination().chainId, destination().contracts.usdc),
            amount: expectedOut.toString(),
          },
        ],
      });
    }
  });

  test("a signed order deposits into the vault, fills on the EVM destination and the committee releases the vault to the solver", async () => {
    const user = solana().users[1]!;
    const solverKey = solana().solvers[0]!;
    const recipient = devnet.manifest.users[1]!;
    const amountIn = parseUnits("40", 6);
    const quote = await quoteFrom(
      "alpha",
      quoteRequest(user, recipient, { swapType: "exact-input", amount: amountIn }),
    );
    const { payload } = svm(quote);
    const amountOut = BigInt(payload.output.amount);
    const before = {
      user: await splBalance(user.address),
      solver: await splBalance(solverKey.address),
      recipient: await balanceOf(
        devnet.clients,
        destination().chainId,
        destination().contracts.usdc,
        recipient.address,
      ),
    };
    const signer = await signerOf(user);
    const submitted = await devnet.call<OrderResponse>("POST", "/aggregator/api/v1/orders", {
      quoteResponse: quote,
      signature: await envelope(signer, Buffer.from(payload.transactionMessage, "base64")),
    });
    assert.equal(submitted.status, 200, JSON.stringify(submitted.body));
    assert.equal(submitted.body.orderId, payload.escrowOrder.orderId.slice(2));
    assert.equal(submitted.body.orderType, "oif-svm-escrow-v0");

    const final = await followTo(submitted.body.orderId, (status) => status === "finalized");
    assert.equal(final.fillTransaction?.status, "executed");
    const { open_transaction: deposit, release_transaction: release } = final.settlement.data as {
      open_transaction: string;
      release_transaction: string;
    };
    const landed = devnet.solana.chain.transaction(deposit);
    assert.equal(landed?.err, null);
    assert.equal(landed?.transaction.accountKeys[0], solverKey.address, "the solver paid the deposit's fee");
    assert.equal(await devnet.solana.escrow.state(payload.escrowOrder.orderId), "released");
    assert.equal(
      devnet.solana.chain.transaction(release)?.memo,
      `[74] release:${payload.escrowOrder.orderId}`,
    );
    assert.equal(await splBalance(user.address), before.user - amountIn);
    assert.equal(await splBalance(solverKey.address), before.solver + amountIn);
    assert.equal(
      await balanceOf(devnet.clients, destination().chainId, destination().contracts.usdc, recipient.address),
      before.recipient + amountOut,
    );
    const committee = await devnet.call<{ fills: { orderId: string; state: string; solver: string }[] }>(
      "GET",
      "/control/committee",
    );
    const fill = committee.body.fills.find((f) => f.orderId === payload.escrowOrder.orderId);
    assert.equal(fill?.state, "proven");
    assert.equal(
      fill?.solver,
      solanaKeyToBytes32(solverKey.address),
      "the fill names the solver's Solana key",
    );
  });

  test("an exact-output order through the specification's face pays exactly the output and settles", async () => {
    const user = solana().users[2]!;
    const recipient = devnet.manifest.users[2]!;
    const amountOut = parseUnits("10", 6);
    const answer = await devnet.call<{ quotes: (QuoteResponse & { provider: string })[] }>(
      "POST",
      "/spec/aggregator/v1/quotes",
      {
        ...quoteRequest(user, recipient, { swapType: "exact-output", amount: amountOut }),
        solverOptions: { includeSolvers: ["beta"] },
      },
    );
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    const quote = answer.body.quotes[0]!;
    const { payload } = svm(quote);
    assert.equal(payload.signatureType, "ed25519", "the spec face keeps the Solana signature type");
    assert.equal(payload.output.amount, amountOut.toString());
    assert.equal(payload.escrowOrder.amount, ((amountOut * 10_000n + 9_949n) / 9_950n).toString());
    const recipientBefore = await balanceOf(
      devnet.clients,
      destination().chainId,
      destination().contracts.usdc,
      recipient.address,
    );
    const submitted = await devnet.call<{ orderId: string; status: string }>(
      "POST",
      "/spec/aggregator/v1/orders",
      {
        order: quote.order,
        quoteId: quote.quoteId,
        signature: await envelope(await signerOf(user), Buffer.from(payload.transactionMessage, "base64")),
      },
    );
    assert.equal(submitted.status, 200, JSON.stringify(submitted.body));
    assert.equal(submitted.body.status, "received");
    await pollUntil(
      "the spec face reports finalized",
      async () => {
        const read = await devnet.call<{ status: string }>(
          "GET",
          `/spec/aggregator/v1/orders/${submitted.body.orderId}`,
        );
        return read.body.status === "finalized" ? true : undefined;
      },
      { timeoutMs: 60_000, intervalMs: 100 },
    );
    assert.equal(
      await balanceOf(devnet.clients, destination().chainId, destination().contracts.usdc, recipient.address),
      recipientBefore + amountOut,
    );
  });

  test("the solver refuses an envelope of the wrong length, prefix or key, or a signature over another message, and sends nothing", async () => {
    const user = solana().users[3]!;
    const quote = await quoteFrom(
      "alpha",
      quoteRequest(user, devnet.manifest.users[3]!, { swapType: "exact-input", amount: parseUnits("5", 6) }),
    );
    const { payload } = svm(quote);
    const message = Buffer.from(payload.transactionMessage, "base64");
    const signer = await signerOf(user);
    const good = await envelope(signer, message);
    const other = await signerOf(solana().users[4]!);
    const cases: [string, string, RegExp][] = [
      ["wrong length", Buffer.from(good, "base64").subarray(0, 96).toString("base64"), /96 bytes/],
      ["wrong prefix", await envelope(signer, message, 1), /0x00/],
      ["key ≠ sender", await envelope(other, message), /public key is not the sender/],
      ["another message", await envelope(signer, Buffer.from("another message")), /not the sender's Ed25519/],
    ];
    for (const [name, signature, reason] of cases) {
      const refused = await devnet.call<{ error: string; message: string }>(
        "POST",
        "/aggregator/api/v1/orders",
        {
          quoteResponse: quote,
          signature,
        },
      );
      assert.equal(refused.status, 422, `${name}: ${JSON.stringify(refused.body)}`);
      assert.equal(refused.body.error, "SOLVER_REJECTED", name);
      assert.match(refused.body.message, reason, name);
    }
    assert.equal(await devnet.solana.escrow.state(payload.escrowOrder.orderId), "awaiting-deposit");
    const unknown = await devnet.call("GET", `/solvers/alpha/api/v1/orders/${payload.escrowOrder.orderId}`);
    assert.equal(unknown.status, 400, "a refused envelope leaves no order at the solver");
    const accepted = await devnet.call("POST", "/aggregator/api/v1/orders", {
      quoteResponse: quote,
      signature: good,
    });
    assert.equal(accepted.status, 200, "the right envelope is still taken after the refusals");
  });

  test("refuseOrders refuses a Solana order through the aggregator and nothing lands", async () => {
    const user = solana().users[5]!;
    const quote = await quoteFrom(
      "beta",
      quoteRequest(user, devnet.manifest.users[4]!, { swapType: "exact-input", amount: parseUnits("3", 6) }),
    );
    const { payload } = svm(quote);
    await devnet.call("POST", "/control/solvers/beta/faults", { refuseOrders: true });
    const refused = await devnet.call<{ error: string }>("POST", "/aggregator/api/v1/orders", {
      quoteResponse: quote,
      signature: await envelope(await signerOf(user), Buffer.from(payload.transactionMessage, "base64")),
    });
    assert.equal(refused.status, 422);
    assert.equal(refused.body.error, "SOLVER_REJECTED");
    assert.equal(await devnet.solana.escrow.state(payload.escrowOrder.orderId), "awaiting-deposit");
  });

  test("an order the solver never fills (failAt Fill) is refunded to the user once the Solana clock passes its expiry", async () => {
    const user = solana().users[6]!;
    const amountIn = parseUnits("12", 6);
    const quote = await quoteFrom(
      "alpha",
      quoteRequest(user, devnet.manifest.users[5]!, { swapType: "exact-input", amount: amountIn }),
    );
    const { payload } = svm(quote);
    const userBefore = await splBalance(user.address);
    await devnet.call("POST", "/control/solvers/alpha/faults", { failAt: "Fill" });
    const submitted = await devnet.call<OrderResponse>("POST", "/aggregator/api/v1/orders", {
      quoteResponse: quote,
      signature: await envelope(await signerOf(user), Buffer.from(payload.transactionMessage, "base64")),
    });
    assert.equal(submitted.status, 200, JSON.stringify(submitted.body));
    const failed = await followTo(submitted.body.orderId, (status) => typeof status === "object");
    assert.deepEqual((failed.status as { failed: [string, string] }).failed[0], "Fill");
    assert.equal(failed.fillTransaction, null);
    assert.equal(await devnet.solana.escrow.state(payload.escrowOrder.orderId), "deposited");
    assert.equal(await splBalance(user.address), userBefore - amountIn);

    const ahead = payload.escrowOrder.expires - devnet.solana.chain.unixTimestamp() + 1;
    const moved = await devnet.call("POST", `/control/chains/${solana().chainDomain}/increase-time`, {
      seconds: ahead,
    });
    assert.equal(moved.status, 200, JSON.stringify(moved.body));
    await pollUntil("the settler refunds the expired deposit", async () =>
      (await devnet.solana.escrow.state(payload.escrowOrder.orderId)) === "refunded" ? true : undefined,
    );
    assert.equal(await splBalance(user.address), userBefore, "the user has the input back");
  });

  async function submitSigned(solverId: string, user: DevnetSolanaAccount, amountIn: bigint) {
    const quote = await quoteFrom(
      solverId,
      quoteRequest(user, devnet.manifest.users[6]!, { swapType: "exact-input", amount: amountIn }),
    );
    return submitQuote(user, quote);
  }

  async function submitQuote(user: DevnetSolanaAccount, quote: QuoteResponse) {
    const { payload } = svm(quote);
    const submitted = await devnet.call<OrderResponse>("POST", "/aggregator/api/v1/orders", {
      quoteResponse: quote,
      signature: await envelope(await signerOf(user), Buffer.from(payload.transactionMessage, "base64")),
    });
    assert.equal(submitted.status, 200, JSON.stringify(submitted.body));
    return { orderId: submitted.body.orderId, escrowOrderId: payload.escrowOrder.orderId as `0x${string}` };
  }

  test("failAt stops a Solana order where it says: Prepare sends nothing, PostFill and Claim leave the committee's release to happen", async () => {
    const user = solana().users[7]!;
    await devnet.call("POST", "/control/solvers/alpha/faults", { failAt: "Prepare" });
    const prepare = await submitSigned("alpha", user, parseUnits("2", 6));
    const prepared = await followTo(prepare.orderId, (status) => typeof status === "object");
    assert.equal((prepared.status as { failed: [string, string] }).failed[0], "Prepare");
    assert.equal(await devnet.solana.escrow.state(prepare.escrowOrderId), "awaiting-deposit");

    for (const stage of ["PostFill", "Claim"] as const) {
      await devnet.call("POST", "/control/solvers/alpha/faults", { failAt: stage });
      const order = await submitSigned("alpha", user, parseUnits("2", 6));
      const failed = await followTo(order.orderId, (status) => typeof status === "object");
      assert.equal((failed.status as { failed: [string, string] }).failed[0], stage);
      await pollUntil(`the committee releases the ${stage} order`, async () =>
        (await devnet.solana.escrow.state(order.escrowOrderId)) === "released" ? true : undefined,
      );
    }
  });

  test("two quotes of the same terms within one second are two escrow orders: both deposits count and both are released", async () => {
    const user = solana().users[4]!;
    const amountIn = parseUnits("7", 6);
    const request = quoteRequest(user, devnet.manifest.users[6]!, {
      swapType: "exact-input",
      amount: amountIn,
    });
    // Quoted back to back until a pair falls within one second, so that only the nonce tells them apart.
    const [first, second] = await pollUntil("two quotes of the same terms", async () => {
      const pair = [await quoteFrom("alpha", request), await quoteFrom("alpha", request)] as const;
      const [a, b] = pair.map((quote) => svm(quote).payload);
      return a!.escrowOrder.expires === b!.escrowOrder.expires && a!.fillDeadline === b!.fillDeadline
        ? pair
        : undefined;
    });
    const [a, b] = [svm(first).payload, svm(second).payload];
    const { nonce: nonceA, orderId: idA, ...termsA } = a.escrowOrder;
    const { nonce: nonceB, orderId: idB, ...termsB } = b.escrowOrder;
    assert.deepEqual(termsA, termsB, "user, mint, amount, expires and outputHash are the same");
    assert.notEqual(nonceA, nonceB);
    assert.notEqual(idA, idB, "each quote is its own escrow order");
    assert.equal(await devnet.solana.escrow.state(idA), "awaiting-deposit");
    assert.equal(await devnet.solana.escrow.state(idB), "awaiting-deposit");

    const userBefore = await splBalance(user.address);
    const orders = [await submitQuote(user, first), await submitQuote(user, second)];
    assert.deepEqual(
      orders.map((order) => order.escrowOrderId),
      [idA, idB],
    );
    for (const order of orders) {
      const final = await followTo(order.orderId, (status) => status === "finalized");
      assert.equal(final.fillTransaction?.status, "executed");
      assert.equal(await devnet.solana.escrow.state(order.escrowOrderId), "released");
    }
    assert.equal(await splBalance(user.address), userBefore - 2n * amountIn, "both deposits left the user");
  });

  test("stallAfterExecuted holds a released Solana order at executed without its fill, and reportOnce backwards reports one state back once", async () => {
    const user = solana().users[0]!;
    await devnet.call("POST", "/control/solvers/beta/faults", { stallAfterExecuted: true });
    const order = await submitSigned("beta", user, parseUnits("4", 6));
    const read = (path: string) => devnet.call<OrderResponse>("GET", `${path}/${order.orderId}`);
    await pollUntil("the committee releases the stalled order", async () =>
      (await devnet.solana.escrow.state(order.escrowOrderId)) === "released" ? true : undefined,
    );
    await pollUntil("the stalled order reads executed", async () =>
      (await read("/aggregator/api/v1/orders")).body.status === "executed" ? true : undefined,
    );
    const stalled = await read("/aggregator/api/v1/orders");
    assert.equal(stalled.body.status, "executed");
    assert.equal(stalled.body.fillTransaction, null);

    await devnet.call("POST", "/control/solvers/beta/faults", { stallAfterExecuted: false });
    await pollUntil("the solver reports finalized once unstalled", async () =>
      (await read("/solvers/beta/api/v1/orders")).body.status === "finalized" ? true : undefined,
    );
    await devnet.call("POST", "/control/solvers/beta/faults", { reportOnce: "backwards" });
    assert.equal((await read("/solvers/beta/api/v1/orders")).body.status, "settled");
    assert.equal((await read("/solvers/beta/api/v1/orders")).body.status, "finalized");
    assert.equal((await read("/aggregator/api/v1/orders")).body.status, "finalized");
  });

  test("the committee rejects a fill that does not deliver the order's committed output and releases nothing", async () => {
    const user = solana().users[5]!;
    await devnet.call("POST", "/control/solvers/alpha/faults", { failAt: "Fill" });
    const order = await submitSigned("alpha", user, parseUnits("6", 6));
    await pollUntil("the deposit lands", async () =>
      (await devnet.solana.escrow.state(order.escrowOrderId)) === "deposited" ? true : undefined,
    );
    const quoted = devnet.solana.escrow.order(order.escrowOrderId)!;
    const filler = devnet.manifest.users[7]!;
    const chain = destination();
    await approve(devnet.clients, chain.chainId, filler, chain.contracts.usdc, chain.contracts.outputSettler);
    // A filler pays less than the order asked for and names itself as the solver to be paid.
    const short = {
      oracle: addressToBytes32(chain.contracts.committeeOracle),
      settler: addressToBytes32(chain.contracts.outputSettler),
      chainId: BigInt(chain.chainId),
      token: addressToBytes32(chain.contracts.usdc),
      amount: 1n,
      recipient: addressToBytes32(filler.address),
      callbackData: "0x",
      context: "0x",
    } as const;
    const fillDeadline = quoted.expires - 300;
    await mined(
      devnet.clients,
      chain.chainId,
      await devnet.clients
        .get(chain.chainId)
        .wallet(filler)
        .writeContract({
          address: chain.contracts.outputSettler,
          abi: outputSettlerAbi,
          functionName: "fill",
          args: [order.escrowOrderId, short, fillDeadline, solanaKeyToBytes32(solana().users[4]!.address)],
        }),
    );
    const rejected = await pollUntil("the committee rejects the fill", async () => {
      const committee = await devnet.call<{
        fills: { orderId: string; state: string; lastError?: string }[];
      }>("GET", "/control/committee");
      const fill = committee.body.fills.find((f) => f.orderId === order.escrowOrderId);
      return fill?.state === "rejected" ? fill : undefined;
    });
    assert.match(rejected.lastError ?? "", /does not deliver the output/);
    assert.equal(await devnet.solana.escrow.state(order.escrowOrderId), "deposited");
  });
});
