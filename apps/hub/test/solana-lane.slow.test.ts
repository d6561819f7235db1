import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { isDeepStrictEqual } from "node:util";
import { startReadyStack } from "@hub/cli-app/test-stack";
import {
  type Catalog,
  catalogSchema,
  errorEnvelopeSchema,
  type OrderListEntry,
  onchainFillSchema,
  onchainRefundSchema,
  onchainTxOrderSchema,
  openForAckSchema,
  ordersListSchema,
  preparedQuoteSchema,
  quoteWinnerSchema,
  upstreamOrderStatusSchema,
} from "@hub/contract";
import { createHubClient, type HubClient, HubError, hubOrderIdOf, type SolanaWallet } from "@intent-hub/sdk";
import { solanaWalletFromSecretKey } from "@intent-hub/sdk/solana";
import { viemWalletOverHttp } from "@intent-hub/sdk/viem";
import { pollUntil } from "@hub/test-support";
import {
  address,
  createSolanaRpc,
  getAddressEncoder,
  getBase58Decoder,
  getCompiledTransactionMessageDecoder,
  getProgramDerivedAddress,
} from "@solana/kit";
import { createPublicClient, erc20Abi, type Hex, http } from "viem";
import { privateKeyToAccount } from "viem/accounts";

// The Solana lane's acceptance, through the gateway of a stack started as `npm start` starts it, as a
// wallet does it: the SDK for the calls, @solana/kit for the user's key, viem for the EVM side.

type EvmChain = Catalog["families"]["evm"][number];
type SolanaChain = Catalog["families"]["solana"][number];

const TOKEN_PROGRAM = address("TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA");
const ASSOCIATED_TOKEN_PROGRAM = address("ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL");
const MEMO_PROGRAM = address("MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr");
const SETTLE_TIMEOUT_MS = 180_000;

describe("the Solana lane through the gateway of a started stack", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "hub-solana-lane-"));
  let stack: Awaited<ReturnType<typeof startReadyStack>>;
  let catalog: Catalog;
  let solana: SolanaChain;
  let solanaRpcUrl: string;
  /** The EVM chain Solana orders pay out on, and the one EVM orders to Solana start from. */
  let destination: EvmChain;
  let origin: EvmChain;
  let subjects = 0;

  before(async () => {
    stack = await startReadyStack(dataDir);
    catalog = catalogSchema.parse(await clientFor("solana-lane-catalog").getCatalog());
    solana = catalog.families.solana[0]!;
    assert.ok(solana, "the catalog declares the Solana chain");
    solanaRpcUrl = stack.dev.solanaChains.find((chain) => chain.chainDomain === solana.chainDomain)!.rpcUrl;
    destination = catalog.families.evm.find((chain) => chain.chainDomain === "eip155:31338")!;
    origin = catalog.families.evm.find((chain) => chain.chainDomain === "eip155:31337")!;
  });

  after(async () => {
    await stack?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  function clientFor(subject: string): HubClient {
    return createHubClient({ baseUrl: stack.dev.baseUrl, apiKey: stack.dev.apiKey, subject });
  }

  const nextSubject = () => `solana-lane-${++subjects}`;
  const usdc = <C extends EvmChain | SolanaChain>(chain: C): C["assets"][number] =>
    (chain.assets as C["assets"][number][]).find((asset) => asset.symbol === "USDC")!;
  const rpcUrlOf = (chain: EvmChain) =>
    stack.dev.chains.find((entry) => entry.chainId === chain.chainId)!.rpcUrl;

  function evmBalance(chain: EvmChain, owner: string): Promise<bigint> {
    return createPublicClient({ transport: http(rpcUrlOf(chain)) }).readContract({
      address: usdc(chain).address as Hex,
      abi: erc20Abi,
      functionName: "balanceOf",
      args: [owner as Hex],
    });
  }

  /** The owner's USDC on the Solana chain: its associated token account's balance, 0 when it has none. */
  async function solanaBalance(owner: string): Promise<bigint> {
    const encoder = getAddressEncoder();
    const [ata] = await getProgramDerivedAddress({
      programAddress: ASSOCIATED_TOKEN_PROGRAM,
      seeds: [
        encoder.encode(address(owner)),
        encoder.encode(TOKEN_PROGRAM),
        encoder.encode(address(usdc(solana).mint)),
      ],
    });
    const rpc = createSolanaRpc(solanaRpcUrl);
    const { value: account } = await rpc.getAccountInfo(ata, { encoding: "base64" }).send();
    if (!account) return 0n;
    return BigInt((await rpc.getTokenAccountBalance(ata).send()).value.amount);
  }

  /** A call to the devnet's control API (fault knobs, chain time). */
  async function control(method: "POST" | "DELETE", path: string, body?: object): Promise<unknown> {
    const answer = await fetch(`${stack.dev.devnetUrl}/control${path}`, {
      method,
      headers: body ? { "content-type": "application/json" } : {},
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await answer.text();
    assert.equal(answer.status, 200, `${method} ${path}: ${text}`);
    return JSON.parse(text);
  }

  /** A raw POST through the gateway, for the bodies no SDK would send; every answer is an envelope. */
  async function post(path: string, subject: string, body: object) {
    const answer = await fetch(`${stack.dev.baseUrl}${path}`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "x-api-key": stack.dev.apiKey,
        "x-service-subject": subject,
      },
      body: JSON.stringify(body),
    });
    return { status: answer.status, json: (await answer.json()) as unknown };
  }

  /** A Solana user of dev.json as a wallet holds it: the 64-byte key pair as exported. */
  function solanaUser(index: number): Promise<SolanaWallet> {
    return solanaWalletFromSecretKey(stack.dev.solanaAccounts[index]!.secretKey);
  }

  /** Solana USDC → EVM USDC on eip155:31338 for a Solana user; the winner checked as a wallet would. */
  async function solanaQuote(client: HubClient, user: SolanaWallet, recipient: string, amount = "3000000") {
    const winner = quoteWinnerSchema.parse(
      await client.createQuote({
        sourceAsset: usdc(solana).key,
        destinationAsset: usdc(destination).key,
        amount,
        recipient,
        sourceAccount: user.address,
      }),
    );
    assert.equal(winner.lane, "oif-escrow-nonevm");
    const payload = winner.signPayload as {
      transactionMessage: string;
      digest: string;
      sender: string;
      feePayer: string;
    };
    const message = Buffer.from(payload.transactionMessage, "base64");
    assert.equal(payload.sender, user.address);
    assert.notEqual(payload.feePayer, user.address, "the solver pays the fees");
    assert.equal(payload.digest, getBase58Decoder().decode(createHash("sha256").update(message).digest()));
    const compiled = getCompiledTransactionMessageDecoder().decode(message);
    assert.equal(compiled.version, 0);
    assert.equal(compiled.header.numSignerAccounts, 2);
    assert.deepEqual(compiled.staticAccounts.slice(0, 2), [payload.feePayer, payload.sender]);
    const programs = compiled.instructions.map((ix) => compiled.staticAccounts[ix.programAddressIndex]);
    assert.deepEqual(programs, [TOKEN_PROGRAM, MEMO_PROGRAM], "transferChecked, then the memo");
    const memo = Buffer.from(compiled.instructions[1]!.data ?? []).toString("utf8");
    return { winner, message, memo };
  }

  /** Polls GET /order/{hubOrderId}/status until `state`; a terminal state other than it fails at once. */
  async function untilUpstream(client: HubClient, hubOrderId: string, state: "finalized" | "failed") {
    return pollUntil(
      `the upstream view reads ${state}`,
      async () => {
        const status = upstreamOrderStatusSchema.parse(await client.getOrderStatus(hubOrderId));
        if (status.state === state) return status;
        assert.ok(
          !["finalized", "failed", "refunded"].includes(status.state),
          `stopped at ${status.state}: ${JSON.stringify(status)}`,
        );
        return undefined;
      },
      { timeoutMs: SETTLE_TIMEOUT_MS, intervalMs: 2_000 },
    );
  }

  /** Polls GET /orders under the subject until its one entry's chain.status is `status`. */
  async function untilListed(client: HubClient, status: "OPEN" | "SETTLED" | "REFUNDED") {
    return pollUntil(
      `the list entry reaches ${status}`,
      async () => {
        const page = ordersListSchema.parse(await client.listOrders());
        assert.ok(page.orders.length <= 1, "one order under the subject");
        const entry = page.orders[0];
        return entry?.chain?.status === status ? entry : undefined;
      },
      { timeoutMs: SETTLE_TIMEOUT_MS, intervalMs: 1_000 },
    );
  }

  test("Solana → EVM: quote with a Solana sourceAccount, sign the message with the user's Ed25519 key, register the 97-byte envelope; finalized, listed SETTLED, the fill view settled, the recipient's EVM balance grew by the output", async () => {
    const subject = nextSubject();
    const client = clientFor(subject);
    const user = await solanaUser(2);
    const recipient = stack.dev.accounts[0]!.address;
    const [evmBefore, solanaBefore] = [
      await evmBalance(destination, recipient),
      await solanaBalance(user.address),
    ];

    const { winner, memo } = await solanaQuote(client, user, recipient);
    const order = await client.submit(winner, user);
    assert.equal(order.kind, "openfor");
    if (order.kind !== "openfor") return;
    openForAckSchema.parse(order.ack);
    assert.equal(memo, order.onchainOrderId, "the deposit's memo names the order the hub registered");
    assert.equal(order.hubOrderId, await hubOrderIdOf(winner.quoteId));
    if (winner.onchainOrderId) assert.equal(order.onchainOrderId, winner.onchainOrderId);

    await untilUpstream(client, order.hubOrderId, "finalized");
    const entry = await untilListed(client, "SETTLED");
    assert.deepEqual(
      [entry.orderId, entry.lane, entry.onchainOrderId],
      [order.hubOrderId, "oif-escrow-nonevm", order.onchainOrderId],
    );
    assert.deepEqual(entry.inputs, [
      { chainDomain: solana.chainDomain, asset: usdc(solana).key, amount: winner.input.amount },
    ]);
    assert.equal(entry.chain?.openTx?.chainDomain, solana.chainDomain, "the deposit on the Solana chain");
    assert.equal(
      entry.chain?.settledTx?.chainDomain,
      solana.chainDomain,
      "the release from the Solana vault",
    );

    const fill = onchainFillSchema.parse(await client.getOnchainFill(order.onchainOrderId));
    assert.deepEqual([fill.status, fill.filled, fill.settled], ["SETTLED", true, true]);
    assert.deepEqual(
      fill.fills.map((paid) => [paid.chainDomain, paid.amount, paid.inTime]),
      [[destination.chainDomain, winner.output.amount, true]],
    );
    // A Solana signature resolves to its order like an EVM transaction hash.
    const opened = onchainTxOrderSchema.parse(
      await client.getOrderByTransaction(solana.chainDomain, entry.chain!.openTx!.txHash),
    );
    assert.deepEqual([opened.orderId, opened.event], [order.onchainOrderId, "open"]);

    assert.equal((await evmBalance(destination, recipient)) - evmBefore, BigInt(winner.output.amount));
    assert.equal(solanaBefore - (await solanaBalance(user.address)), BigInt(winner.input.amount));
  });

  test("Solana → EVM: two quotes of the same terms within one second are two escrow orders; both register, both deposits count, both settle", async () => {
    const client = clientFor(nextSubject());
    const user = await solanaUser(7);
    const recipient = stack.dev.accounts[1]!.address;
    const solanaBefore = await solanaBalance(user.address);
    // Quoted back to back until a pair falls within one second, so that only the solver's nonce tells them apart.
    const [first, second] = await pollUntil("two quotes of the same terms", async () => {
      const pair = [await solanaQuote(client, user, recipient), await solanaQuote(client, user, recipient)];
      const [a, b] = pair.map(({ winner }) => {
        const { onchainOrderId: _, ...terms } = winner.disclosure.signablePayload.terms as Record<
          string,
          unknown
        >;
        return terms;
      });
      return isDeepStrictEqual(a, b) ? pair : undefined;
    });
    assert.notEqual(first!.winner.onchainOrderId, second!.winner.onchainOrderId);
    assert.deepEqual(
      [first!.memo, second!.memo],
      [first!.winner.onchainOrderId, second!.winner.onchainOrderId],
      "each deposit's memo names its own order",
    );

    const orders = [];
    for (const { winner } of [first!, second!]) {
      const order = await client.submit(winner, user);
      assert.equal(order.kind, "openfor");
      if (order.kind !== "openfor") return;
      assert.equal(order.onchainOrderId, winner.onchainOrderId);
      orders.push(order);
    }
    for (const order of orders) await untilUpstream(client, order.hubOrderId, "finalized");
    const settled = await pollUntil(
      "both list entries read SETTLED",
      async () => {
        const page = ordersListSchema.parse(await client.listOrders());
        return page.orders.length === 2 && page.orders.every((entry) => entry.chain?.status === "SETTLED")
          ? page.orders
          : undefined;
      },
      { timeoutMs: SETTLE_TIMEOUT_MS, intervalMs: 1_000 },
    );
    assert.deepEqual(
      settled.map((entry) => entry.onchainOrderId).sort(),
      orders.map((order) => order.onchainOrderId).sort(),
    );
    assert.notEqual(settled[0]!.chain?.openTx?.txHash, settled[1]!.chain?.openTx?.txHash, "two deposits");
    assert.equal(solanaBefore - (await solanaBalance(user.address)), 2n * BigInt(first!.winner.input.amount));
  });

  // USDC is the only token with a Solana counterpart and it declares EIP-3009, which ranks first, so the
  // stack's winner is an EIP-3009 order; Permit2 orders paid on Solana are settled end to end in
  // apps/devnet/test/evm-to-solana.slow.test.ts and vetted in solana-quotes.slow.test.ts.
  test("EVM → Solana: the winning signature order with a Solana recipient settles and the recipient's token balance grows by the output", async () => {
    const subject = nextSubject();
    const client = clientFor(subject);
    const account = privateKeyToAccount(stack.dev.accounts[1]!.privateKey as Hex);
    const recipient = stack.dev.solanaAccounts[3]!.address;
    const before = await solanaBalance(recipient);

    const request = {
      sourceAsset: usdc(origin).key,
      destinationAsset: usdc(solana).key,
      amount: "2000000",
      recipient,
      sourceAccount: account.address,
    };
    const preview = await client.previewQuote(request);
    assert.deepEqual(
      [...new Set(preview.offers.map((entry) => entry.lane))].sort(),
      ["aggregator-gasless", "oif-escrow-gasless"],
      "both EVM signature lanes offer to pay the Solana recipient",
    );
    const offer = preview.offers[0]!;
    const quote = preparedQuoteSchema.parse(
      await client.prepareQuote({
        ...request,
        preparationId: `${subject}-evm-to-solana`,
        provider: offer.provider,
      }),
    );
    assert.equal(quote.lane, "aggregator-gasless");
    const rpcUrls = Object.fromEntries(stack.dev.chains.map((chain) => [chain.chainId, chain.rpcUrl]));
    const order = await client.submit(quote, viemWalletOverHttp(account, rpcUrls));
    assert.equal(order.kind, "openfor");
    if (order.kind !== "openfor") return;

    const entry = await untilListed(client, "SETTLED");
    assert.equal(entry.onchainOrderId, order.onchainOrderId);
    const fill = onchainFillSchema.parse(await client.getOnchainFill(order.onchainOrderId));
    assert.deepEqual([fill.status, fill.settled], ["SETTLED", true]);
    assert.deepEqual(
      fill.fills.map((paid) => [paid.chainDomain, paid.amount]),
      [[solana.chainDomain, quote.output.amount]],
    );
    assert.equal((await solanaBalance(recipient)) - before, BigInt(quote.output.amount));
  });

  describe("refusals", () => {
    /** POSTs a hand-made envelope for a fresh Solana quote: EIN0001 on `signature`, nothing registered. */
    async function assertEnvelopeRefused(envelope: (message: Buffer, user: SolanaWallet) => Promise<Buffer>) {
      const subject = nextSubject();
      const client = clientFor(subject);
      const user = await solanaUser(5);
      const { winner, message } = await solanaQuote(client, user, stack.dev.accounts[2]!.address);
      const signature = (await envelope(message, user)).toString("base64");
      const answer = await post("/order/openfor", subject, {
        quoteRequestId: winner.quoteRequestId,
        quoteId: winner.quoteId,
        signature,
      });
      const refusal = errorEnvelopeSchema.parse(answer.json);
      assert.equal(answer.status, 400);
      assert.deepEqual(
        [refusal.errors[0]?.error_code, refusal.errors[0]?.error_reference],
        ["EIN0001", "signature"],
        JSON.stringify(answer.json),
      );
    }

    const keyOf = (wallet: SolanaWallet) => Buffer.from(getAddressEncoder().encode(address(wallet.address)));
    const sign = async (wallet: SolanaWallet, message: Uint8Array) =>
      Buffer.from(await wallet.signEd25519(message));

    test("an envelope of 96 bytes is EIN0001 on signature", async () => {
      await assertEnvelopeRefused(async (message, user) =>
        Buffer.concat([Buffer.from([0]), await sign(user, message), keyOf(user)]).subarray(0, 96),
      );
    });

    test("an envelope whose first byte is not 0x00 is EIN0001 on signature", async () => {
      await assertEnvelopeRefused(async (message, user) =>
        Buffer.concat([Buffer.from([1]), await sign(user, message), keyOf(user)]),
      );
    });

    test("an envelope whose key is not the payload's sender is EIN0001 on signature, though its signature verifies under that key", async () => {
      const other = await solanaUser(6);
      await assertEnvelopeRefused(async (message) =>
        Buffer.concat([Buffer.from([0]), await sign(other, message), keyOf(other)]),
      );
    });

    test("an envelope whose signature is over another message is EIN0001 on signature", async () => {
      await assertEnvelopeRefused(async (message, user) => {
        const another = Buffer.from(message);
        another[0] = another[0]! ^ 0xff;
        return Buffer.concat([Buffer.from([0]), await sign(user, another), keyOf(user)]);
      });
    });

    test("a quote without sourceAccount for a Solana source is EIN0001 on sourceAccount", async () => {
      const client = clientFor(nextSubject());
      const error = await client
        .createQuote({
          sourceAsset: usdc(solana).key,
          destinationAsset: usdc(destination).key,
          amount: "3000000",
          recipient: stack.dev.accounts[2]!.address,
        })
        .then(
          () => assert.fail("quoted without sourceAccount"),
          (caught: unknown) => caught,
        );
      assert.ok(error instanceof HubError, String(error));
      assert.deepEqual([error.code, error.reference, error.status], ["EIN0001", "sourceAccount", 400]);
    });

    test("a malformed Solana recipient is EIN0001 on recipient", async () => {
      const client = clientFor(nextSubject());
      const account = stack.dev.accounts[2]!.address;
      for (const recipient of ["0OIl-not-base58", "3yZe7d", account]) {
        const error = await client
          .createQuote({
            sourceAsset: usdc(origin).key,
            destinationAsset: usdc(solana).key,
            amount: "2000000",
            recipient,
            sourceAccount: account,
          })
          .then(
            () => assert.fail(`quoted to ${recipient}`),
            (caught: unknown) => caught,
          );
        assert.ok(error instanceof HubError, String(error));
        assert.deepEqual([error.code, error.reference], ["EIN0001", "recipient"], recipient);
      }
    });
  });

  test("expiry: an order the solvers never fill is refunded to the user once the Solana clock passes expires, and the refund view shows the refund", async (t) => {
    for (const solver of ["alpha", "beta"])
      await control("POST", `/solvers/${solver}/faults`, { failAt: "Fill" });
    t.after(async () => {
      for (const solver of ["alpha", "beta"]) await control("DELETE", `/solvers/${solver}/faults`);
    });
    const client = clientFor(nextSubject());
    const user = await solanaUser(4);
    const before = await solanaBalance(user.address);
    const { winner } = await solanaQuote(client, user, stack.dev.accounts[3]!.address);
    const order = await client.submit(winner, user);
    if (order.kind !== "openfor") return assert.fail(order.kind);

    const opened = await untilListed(client, "OPEN");
    assert.equal(opened.chain?.openTx?.chainDomain, solana.chainDomain);
    assert.equal(before - (await solanaBalance(user.address)), BigInt(winner.input.amount), "deposited");
    const failed = await untilUpstream(client, order.hubOrderId, "failed");
    assert.equal(failed.failedAt, "Fill");
    const notYet = onchainRefundSchema.parse(await client.getOnchainRefund(order.onchainOrderId));
    assert.deepEqual([notYet.refundable, notYet.reason], [false, "not-expired"]);

    const moved = (await control("POST", `/chains/${encodeURIComponent(solana.chainDomain)}/increase-time`, {
      seconds: 86_400,
    })) as { chainDomain: string; timestamp: number };
    assert.equal(moved.chainDomain, solana.chainDomain);

    const refunded: OrderListEntry = await untilListed(client, "REFUNDED");
    const refundedTx = refunded.chain?.refundedTx;
    assert.equal(refundedTx?.chainDomain, solana.chainDomain, "the refund from the Solana vault");
    const refund = onchainRefundSchema.parse(await client.getOnchainRefund(order.onchainOrderId));
    assert.deepEqual([refund.refundable, refund.reason], [false, "refunded"]);
    assert.deepEqual(refund.refundedTx, refundedTx, "the refund view names the refund transaction");
    const fill = onchainFillSchema.parse(await client.getOnchainFill(order.onchainOrderId));
    assert.deepEqual([fill.status, fill.filled, fill.settled], ["REFUNDED", false, false]);
    const byTx = onchainTxOrderSchema.parse(
      await client.getOrderByTransaction(solana.chainDomain, refundedTx!.txHash),
    );
    assert.deepEqual([byTx.orderId, byTx.event], [order.onchainOrderId, "refund"]);
    assert.equal(await solanaBalance(user.address), before, "the whole input is back with the user");
  });
});
