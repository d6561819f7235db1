import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import {
  addressToBytes32,
  type DevnetAccount,
  encodeSolanaInteropAddress,
  inputSettlerEscrowAbi,
  type StandardOrder,
  type StandardOrderJson,
  solanaKeyToBytes32,
  standardOrderFromJson,
  solanaOifChainId,
} from "@hub/chain";
import { pollUntil } from "@hub/test-support";
import { address, createSolanaRpc, type Signature } from "@solana/kit";
import { findAssociatedTokenPda, TOKEN_PROGRAM_ADDRESS } from "@solana-program/token";
import { type Hex, parseUnits } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { encodeInteropAddress } from "../src/aggregator/interop-address.js";
import type { OrderResponse } from "../src/aggregator/oif-order.js";
import {
  evmOrderPayload,
  type OrderPayload,
  type QuoteResponse,
  type QuotesResponse,
} from "../src/aggregator/oif-quote.js";
import type { ObservedFill } from "../src/committee/create-committee.js";
import { devnetSolanaKeypair } from "../src/solana/solana-keypair.js";
import { approve, balanceOf, mined, startTestDevnet, type TestDevnet } from "./devnet-test-kit.js";

const permit2 = "0x000000000022D473030F116dDEE9F6B43aC78BA3";
const escrowStatus = { Deposited: 1, Claimed: 2, Refunded: 3 } as const;

describe("EVM → Solana: Permit2 and EIP-3009 orders paid to a Solana recipient", () => {
  let devnet: TestDevnet;
  let rpc: ReturnType<typeof createSolanaRpc>;
  before(async () => {
    devnet = await startTestDevnet({ committeeDelayMs: 100 });
    rpc = createSolanaRpc(devnet.manifest.solana!.rpcUrl);
  });
  after(async () => devnet?.stop());

  const solana = () => devnet.manifest.solana!;
  const mint = () => solana().tokens[0]!.mint;
  const origin = () => devnet.manifest.chains[0]!;

  /** A Solana account nobody funded: it has no token account until a fill creates one. */
  async function freshRecipient(label: string) {
    const owner = devnetSolanaKeypair(`evm-to-solana test recipient ${label} ${Date.now()}`).address;
    const [tokenAccount] = await findAssociatedTokenPda({
      owner,
      mint: address(mint()),
      tokenProgram: TOKEN_PROGRAM_ADDRESS,
    });
    const { value } = await rpc.getAccountInfo(tokenAccount, { encoding: "base64" }).send();
    assert.equal(value, null, "the recipient has no token account yet");
    return { owner, tokenAccount };
  }

  function request(
    user: DevnetAccount,
    recipient: string,
    amount: bigint,
    extra: { swapType?: "exact-input" | "exact-output"; eip3009?: boolean; solverId?: string } = {},
  ) {
    const exactOutput = extra.swapType === "exact-output";
    return {
      user: encodeInteropAddress(origin().chainId, user.address),
      intent: {
        intentType: "oif-swap",
        inputs: [
          {
            user: encodeInteropAddress(origin().chainId, user.address),
            asset: encodeInteropAddress(origin().chainId, origin().contracts.usdc),
            ...(exactOutput ? {} : { amount: amount.toString() }),
          },
        ],
        outputs: [
          {
            receiver: encodeSolanaInteropAddress(solana().genesisHash, recipient),
            asset: encodeSolanaInteropAddress(solana().genesisHash, mint()),
            ...(exactOutput ? { amount: amount.toString() } : {}),
          },
        ],
        swapType: extra.swapType ?? "exact-input",
        ...(extra.eip3009 ? { originSubmission: { mode: "user", schemes: ["eip3009"] } } : {}),
      },
      supportedTypes: [extra.eip3009 ? "oif-3009-v0" : "oif-escrow-v0"],
      ...(extra.solverId ? { solverOptions: { includeSolvers: [extra.solverId] } } : {}),
    };
  }

  function sign(user: DevnetAccount, payload: OrderPayload): Promise<Hex> {
    return privateKeyToAccount(user.privateKey).signTypedData({
      domain: payload.domain,
      types: payload.types,
      primaryType: payload.primaryType,
      message: payload.message,
    } as unknown as Parameters<ReturnType<typeof privateKeyToAccount>["signTypedData"]>[0]);
  }

  /** The single output every Solana-paid order must carry (docs/decisions/solana-lane.md). */
  function expectedOutput(recipient: string, amount: bigint) {
    const settler = solanaKeyToBytes32(solana().escrow.settler.address);
    return {
      oracle: settler,
      settler,
      chainId: solanaOifChainId(solana().genesisHash).toString(),
      token: solanaKeyToBytes32(mint()),
      amount: amount.toString(),
      recipient: solanaKeyToBytes32(recipient),
      callbackData: "0x",
      context: "0x",
    };
  }

  async function followToFinal(path: string): Promise<{ final: OrderResponse; seen: unknown[] }> {
    const seen: unknown[] = [];
    const final = await pollUntil(
      "the order finalized or failed",
      async () => {
        const answer = await devnet.call<OrderResponse>("GET", path);
        assert.equal(answer.status, 200, JSON.stringify(answer.body));
        const status = answer.body.status;
        if (JSON.stringify(seen.at(-1)) !== JSON.stringify(status)) seen.push(status);
        return (status === "finalized" || (typeof status === "object" && status !== null)) && answer.body;
      },
      { timeoutMs: 60_000, intervalMs: 50 },
    );
    return { final, seen };
  }

  async function tokenBalance(tokenAccount: string): Promise<bigint> {
    const { value } = await rpc.getTokenAccountBalance(address(tokenAccount)).send();
    assert.equal(value.decimals, 6);
    return BigInt(value.amount);
  }

  /** The landed fill: fee payer the solver's Solana key, exactly the three instructions, the memo. */
  async function assertFillTransaction(signature: string, solverIndex: number, orderId: Hex) {
    const solver = devnet.manifest.solvers[solverIndex]!;
    const landed = await rpc
      .getTransaction(signature as Signature, { encoding: "json", maxSupportedTransactionVersion: 0 })
      .send();
    assert.ok(landed, `fill ${signature} landed`);
    assert.equal(landed.meta?.err, null);
    const { accountKeys, instructions } = landed.transaction.message;
    assert.equal(accountKeys[0], solana().solvers[solverIndex]!.address, "the solver pays the fee");
    assert.deepEqual(
      instructions.map((instruction) => accountKeys[instruction.programIdIndex]),
      [
        "ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL",
        TOKEN_PROGRAM_ADDRESS,
        "MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr",
      ],
    );
    const { value: statuses } = await rpc.getSignatureStatuses([signature as Signature]).send();
    assert.equal(statuses[0]?.err, null);
    const history = await rpc.getSignaturesForAddress(address(accountKeys[0]!), { limit: 5 }).send();
    const entry = history.find((item) => item.signature === signature);
    const memo = `fill:${orderId}:${solver.address.toLowerCase()}`;
    assert.equal(entry?.memo, `[${memo.length}] ${memo}`);
  }

  async function escrowOrderStatus(orderId: Hex): Promise<number> {
    return Number(
      await devnet.clients.get(origin().chainId).publicClient.readContract({
        address: origin().contracts.inputSettlerEscrow,
        abi: inputSettlerEscrowAbi,
        functionName: "orderStatus",
        args: [orderId],
      }),
    );
  }

  async function attested(orderId: Hex): Promise<ObservedFill | undefined> {
    const view = await devnet.call<{ fills: ObservedFill[] }>("GET", "/control/committee");
    return view.body.fills.find((fill) => fill.orderId === orderId);
  }

  test("a Permit2 order to a Solana recipient without a token account settles: the recipient holds the output, the solver is paid on the origin", async () => {
    const user = devnet.manifest.users[0]!;
    const recipient = await freshRecipient("permit2");
    const amount = parseUnits("250", 6);
    await approve(devnet.clients, origin().chainId, user, origin().contracts.usdc, permit2, amount);

    const quotes = await devnet.call<QuotesResponse>(
      "POST",
      "/aggregator/api/v1/quotes",
      request(user, recipient.owner, amount),
    );
    assert.equal(quotes.status, 200, JSON.stringify(quotes.body));
    assert.deepEqual(quotes.body.quotes.map((q) => q.solverId).sort(), ["alpha", "beta"]);
    const quote = quotes.body.quotes.find((q) => q.solverId === "alpha")!;
    assert.equal(quote.order.type, "oif-escrow-v0");
    // alpha's 30 bps spread, in the same 6 decimals on both sides.
    const amountOut = (amount * 9970n) / 10_000n;
    assert.equal(quote.preview.outputs[0]!.amount, amountOut.toString());
    const witness = evmOrderPayload(quote.order).message.witness as { outputs: unknown[] };
    assert.deepEqual(witness.outputs, [expectedOutput(recipient.owner, amountOut)]);
    assert.equal(
      devnet.catalog.families.solana?.[0]?.outputSettler,
      solana().escrow.settler.address,
      "settler and oracle name the catalog's outputSettler",
    );

    const solverBefore = await balanceOf(
      devnet.clients,
      origin().chainId,
      origin().contracts.usdc,
      devnet.manifest.solvers[0]!.address,
    );
    const signature = await sign(user, evmOrderPayload(quote.order));
    const submitted = await devnet.call<OrderResponse>("POST", "/aggregator/api/v1/orders", {
      quoteResponse: quote,
      signature: `0x00${signature.slice(2)}`,
    });
    assert.equal(submitted.status, 200, JSON.stringify(submitted.body));
    const orderId = `0x${submitted.body.orderId}` as Hex;

    const { final, seen } = await followToFinal(`/aggregator/api/v1/orders/${submitted.body.orderId}`);
    assert.equal(final.status, "finalized", JSON.stringify(final.status));
    const walk = ["created", "pending", "executing", "executed", "settling", "settled", "finalized"];
    const ranks = seen.map((status) => walk.indexOf(status as string));
    assert.ok(
      ranks.every((rank, i) => rank >= 0 && (i === 0 || rank > ranks[i - 1]!)),
      JSON.stringify(seen),
    );
    const fillSignature = final.fillTransaction?.hash;
    assert.match(String(fillSignature), /^[1-9A-HJ-NP-Za-km-z]{64,88}$/, "the fill is a Solana signature");
    assert.equal(final.fillTransaction?.status, "executed");

    assert.equal(await tokenBalance(recipient.tokenAccount), amountOut);
    await assertFillTransaction(fillSignature!, 0, orderId);
    assert.equal(await escrowOrderStatus(orderId), escrowStatus.Claimed);
    assert.equal(
      await balanceOf(
        devnet.clients,
        origin().chainId,
        origin().contracts.usdc,
        devnet.manifest.solvers[0]!.address,
      ),
      solverBefore + amount,
    );
    const fill = await attested(orderId);
    assert.equal(fill?.state, "proven");
    assert.equal(fill?.fillTxHash, fillSignature);
    assert.equal(fill?.fillChainId, solanaOifChainId(solana().genesisHash).toString());
    assert.equal(fill?.originChainId, origin().chainId);
    assert.equal(fill?.solver, addressToBytes32(devnet.manifest.solvers[0]!.address));
  });

  test("an exact-output EIP-3009 order through the specification's face settles the same way, the metadata naming the Solana output in bytes32", async () => {
    const user = devnet.manifest.users[1]!;
    const recipient = await freshRecipient("eip3009");
    const amountOut = parseUnits("80", 6);
    const quotes = await devnet.call<{ quotes: (Omit<QuoteResponse, "solverId"> & { provider: string })[] }>(
      "POST",
      "/spec/aggregator/v1/quotes",
      request(user, recipient.owner, amountOut, {
        swapType: "exact-output",
        eip3009: true,
        solverId: "beta",
      }),
    );
    assert.equal(quotes.status, 200, JSON.stringify(quotes.body));
    const quote = quotes.body.quotes[0]!;
    assert.equal(quote.provider, "beta");
    assert.equal(quote.order.type, "oif-3009-v0");
    // beta's 50 bps spread: the input is rounded up so the output is fully paid for.
    const amountIn = (amountOut * 10_000n + 9949n) / 9950n;
    assert.equal(evmOrderPayload(quote.order).message.value, amountIn.toString());
    const metadata = quote.order.metadata as {
      orderId: Hex;
      outputs: unknown[];
      standardOrder: { outputs: unknown[] };
    };
    const output = expectedOutput(recipient.owner, amountOut);
    assert.deepEqual(metadata.outputs, [
      {
        chainId: output.chainId,
        asset: output.token,
        amount: output.amount,
        receiver: output.recipient,
        oracle: output.oracle,
        settler: output.settler,
      },
    ]);
    assert.deepEqual(metadata.standardOrder.outputs, [output]);

    const userBefore = await balanceOf(
      devnet.clients,
      origin().chainId,
      origin().contracts.usdc,
      user.address,
    );
    const signature = await sign(user, evmOrderPayload(quote.order));
    const submitted = await devnet.call<{ orderId: string; status: string }>(
      "POST",
      "/spec/aggregator/v1/orders",
      { order: quote.order, signature, quoteId: quote.quoteId },
    );
    assert.equal(submitted.status, 200, JSON.stringify(submitted.body));
    assert.equal(`0x${submitted.body.orderId}`, metadata.orderId);

    const { final } = await followToFinal(`/spec/aggregator/v1/orders/${submitted.body.orderId}`);
    assert.equal(final.status, "finalized", JSON.stringify(final.status));
    assert.equal(await tokenBalance(recipient.tokenAccount), amountOut);
    await assertFillTransaction(String(final.fillTransaction?.hash), 1, metadata.orderId);
    assert.equal(await escrowOrderStatus(metadata.orderId), escrowStatus.Claimed);
    assert.equal(
      await balanceOf(devnet.clients, origin().chainId, origin().contracts.usdc, user.address),
      userBefore - amountIn,
    );
  });

  test("the fault knobs hold for Solana-paid orders: refuseOrders refuses, stallAfterExecuted hides the fill while the order settles, reportOnce reports one state back", async () => {
    const user = devnet.manifest.users[4]!;
    const amount = parseUnits("12", 6);
    await approve(devnet.clients, origin().chainId, user, origin().contracts.usdc, permit2, 2n * amount);

    assert.equal(
      (await devnet.call("POST", "/control/solvers/alpha/faults", { refuseOrders: true })).status,
      200,
    );
    const refusedRecipient = await freshRecipient("refuseOrders");
    const refusedQuotes = await devnet.call<QuotesResponse>(
      "POST",
      "/aggregator/api/v1/quotes",
      request(user, refusedRecipient.owner, amount, { solverId: "alpha" }),
    );
    const refusedQuote = refusedQuotes.body.quotes[0]!;
    const refused = await devnet.call<{ error: string }>("POST", "/aggregator/api/v1/orders", {
      quoteResponse: refusedQuote,
      signature: `0x00${(await sign(user, evmOrderPayload(refusedQuote.order))).slice(2)}`,
    });
    assert.equal(refused.status, 422);
    assert.equal(refused.body.error, "SOLVER_REJECTED");
    assert.equal((await devnet.call("DELETE", "/control/solvers/alpha/faults")).status, 200);

    assert.equal(
      (await devnet.call("POST", "/control/solvers/beta/faults", { stallAfterExecuted: true })).status,
      200,
    );
    const recipient = await freshRecipient("stallAfterExecuted");
    const quotes = await devnet.call<QuotesResponse>(
      "POST",
      "/aggregator/api/v1/quotes",
      request(user, recipient.owner, amount, { solverId: "beta" }),
    );
    const quote = quotes.body.quotes[0]!;
    const submitted = await devnet.call<OrderResponse>("POST", "/aggregator/api/v1/orders", {
      quoteResponse: quote,
      signature: `0x00${(await sign(user, evmOrderPayload(quote.order))).slice(2)}`,
    });
    assert.equal(submitted.status, 200, JSON.stringify(submitted.body));
    const orderId = `0x${submitted.body.orderId}` as Hex;
    const path = `/aggregator/api/v1/orders/${submitted.body.orderId}`;
    await pollUntil(
      "the order is claimed on the origin",
      async () => {
        return (await escrowOrderStatus(orderId)) === escrowStatus.Claimed;
      },
      { timeoutMs: 60_000, intervalMs: 50 },
    );
    const amountOut = (amount * 9950n) / 10_000n;
    assert.equal(await tokenBalance(recipient.tokenAccount), amountOut);
    const stalled = await devnet.call<OrderResponse>("GET", path);
    assert.equal(stalled.body.status, "executed");
    assert.equal(stalled.body.fillTransaction, null);

    assert.equal((await devnet.call("DELETE", "/control/solvers/beta/faults")).status, 200);
    await pollUntil(
      "the solver reports the order finalized",
      async () =>
        (
          await devnet.call<{ status: unknown }>(
            "GET",
            `/solvers/beta/api/v1/orders/${submitted.body.orderId}`,
          )
        ).body.status === "finalized",
      { timeoutMs: 60_000, intervalMs: 50 },
    );
    assert.equal(
      (await devnet.call("POST", "/control/solvers/beta/faults", { reportOnce: "backwards" })).status,
      200,
    );
    assert.equal((await devnet.call<OrderResponse>("GET", path)).body.status, "settled");
    const final = await devnet.call<OrderResponse>("GET", path);
    assert.equal(final.body.status, "finalized");
    await assertFillTransaction(String(final.body.fillTransaction?.hash), 1, orderId);
  });

  test("failAt Fill: the order reports failed at Fill, nothing reaches the recipient, and the user is refunded on the origin after expiry", async () => {
    const user = devnet.manifest.users[2]!;
    const stranger = devnet.manifest.users[3]!;
    const recipient = await freshRecipient("failAt Fill");
    const amount = parseUnits("33", 6);
    await approve(devnet.clients, origin().chainId, user, origin().contracts.usdc, permit2, amount);
    const knobs = await devnet.call("POST", "/control/solvers/alpha/faults", { failAt: "Fill" });
    assert.equal(knobs.status, 200);

    const quotes = await devnet.call<QuotesResponse>(
      "POST",
      "/aggregator/api/v1/quotes",
      request(user, recipient.owner, amount, { solverId: "alpha" }),
    );
    assert.equal(quotes.status, 200, JSON.stringify(quotes.body));
    const quote = quotes.body.quotes[0]!;
    const userBefore = await balanceOf(
      devnet.clients,
      origin().chainId,
      origin().contracts.usdc,
      user.address,
    );
    const signature = await sign(user, evmOrderPayload(quote.order));
    const submitted = await devnet.call<OrderResponse>("POST", "/aggregator/api/v1/orders", {
      quoteResponse: quote,
      signature: `0x00${signature.slice(2)}`,
    });
    assert.equal(submitted.status, 200, JSON.stringify(submitted.body));
    const orderId = `0x${submitted.body.orderId}` as Hex;

    const { final } = await followToFinal(`/aggregator/api/v1/orders/${submitted.body.orderId}`);
    assert.deepEqual(
      (final.status as { failed: unknown[] }).failed?.[0],
      "Fill",
      JSON.stringify(final.status),
    );
    assert.equal(final.fillTransaction, null);
    assert.equal(await escrowOrderStatus(orderId), escrowStatus.Deposited);
    const { value } = await rpc
      .getAccountInfo(address(recipient.tokenAccount), { encoding: "base64" })
      .send();
    assert.equal(value, null, "no fill created the recipient's token account");
    assert.equal(await attested(orderId), undefined, "the committee saw no fill");
    assert.equal((await devnet.call("DELETE", "/control/solvers/alpha/faults")).status, 200);

    const order = standardOrderOf(final);
    const moved = await devnet.call<{ timestamp: number }>(
      "POST",
      `/control/chains/${origin().chainDomain}/increase-time`,
      { seconds: order.expires - Math.floor(Date.now() / 1000) + 60 },
    );
    assert.equal(moved.status, 200);
    assert.ok(moved.body.timestamp > order.expires);
    const client = devnet.clients.get(origin().chainId);
    const refunded = await client.wallet(stranger).writeContract({
      address: origin().contracts.inputSettlerEscrow,
      abi: inputSettlerEscrowAbi,
      functionName: "refund",
      args: [order],
    });
    await mined(devnet.clients, origin().chainId, refunded);
    assert.equal(await escrowOrderStatus(orderId), escrowStatus.Refunded);
    assert.equal(
      await balanceOf(devnet.clients, origin().chainId, origin().contracts.usdc, user.address),
      userBefore,
    );
  });

  test("each solver's GET /assets lists the Solana USDC beside the EVM assets, and the aggregator lists it with the solver", async () => {
    const oifChainId = solanaOifChainId(solana().genesisHash).toString();
    const solanaUsdc = {
      address: encodeSolanaInteropAddress(solana().genesisHash, mint()),
      symbol: "USDC",
      decimals: 6,
    };
    for (const path of ["/solvers/alpha/api/v1/assets", "/spec/solvers/beta/v1/assets"]) {
      const answer = await devnet.call<{
        networks: Record<
          string,
          { chain_id: number | string; assets: { address: string; symbol: string; decimals: number }[] }
        >;
      }>("GET", path);
      assert.equal(answer.status, 200, path);
      const { networks } = answer.body;
      assert.deepEqual(
        Object.keys(networks).sort(),
        [...devnet.manifest.chains.map((chain) => String(chain.chainId)), oifChainId].sort(),
      );
      for (const chain of devnet.manifest.chains) {
        const network = networks[String(chain.chainId)]!;
        assert.equal(network.chain_id, chain.chainId);
        assert.deepEqual(network.assets.map((asset) => asset.symbol).sort(), ["TKN", "USDC", "WETH"]);
      }
      // A 256-bit OIF chain id is a decimal string, as in the Permit2 witness (solana-lane.md).
      assert.deepEqual(networks[oifChainId], { chain_id: oifChainId, assets: [solanaUsdc] });
    }
    const solvers = await devnet.call<{
      solvers: { solverId: string; supportedAssets: { assets: { address: string; chainId: unknown }[] } }[];
    }>("GET", "/aggregator/api/v1/solvers");
    assert.equal(solvers.status, 200);
    for (const solver of solvers.body.solvers) {
      assert.equal(
        solver.supportedAssets.assets.length,
        devnet.manifest.chains.length * 3 + 1,
        solver.solverId,
      );
      assert.deepEqual(
        solver.supportedAssets.assets.filter((asset) => asset.chainId === oifChainId),
        [{ address: solanaUsdc.address, chainId: oifChainId, symbol: "USDC", name: "USDC", decimals: 6 }],
      );
    }
  });
});

/** The StandardOrder an order's settlement data carries (the origin escrow's own words). */
function standardOrderOf(order: OrderResponse): StandardOrder {
  return standardOrderFromJson(order.settlement.data.raw_order_data as StandardOrderJson);
}
