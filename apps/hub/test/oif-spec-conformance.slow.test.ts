import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { inputSettlerEscrowAbi } from "@hub/chain";
import { type OpenForAck, openForAckSchema, type QuoteWinner } from "@hub/contract";
import { pollUntil } from "@hub/test-support";
import { request } from "undici";
import type { Hex } from "viem";
import { OrderStatus, type SpecSchema, specKeys, specSchemas } from "./fixtures/oif-spec-schemas.js";
import {
  approvePermit2,
  codeOf,
  disposeSubmissionDatabases,
  postSignedOpenFor,
  quoteFor,
  type SubmissionStack,
  startSubmissionStack,
  type User,
} from "./submission-stack.js";
import type { UpstreamExchange } from "./submission-upstream-proxy.js";
import { type HubTestDevnet, startHubTestDevnet } from "./upstream-devnet.js";

// Fields the hub sends beyond the specification, each written in docs/decisions.md with its reason.
const EXTRA_REQUEST_FIELDS = ["solverOptions"];

const failStages = ["Prepare", "Fill", "PostFill", "PreClaim", "Claim"] as const;

function problemsOf(schema: SpecSchema, value: unknown): string | undefined {
  const parsed = schema.safeParse(value);
  return parsed.success ? undefined : parsed.error.message;
}

function extraKeys(value: unknown, known: readonly string[]): string[] {
  if (typeof value !== "object" || value === null) return [];
  return Object.keys(value).filter((key) => !known.includes(key));
}

/**
 * The hub and the devnet in the specification's dialect (oif-spec-1), held to the specification's own
 * zod schemas (@openintentsframework/oif-specs 1.0.0): every request the hub sends and every answer the
 * devnet gives, on every OIF lane, through every order state and every failure arm of the solvers.
 */
describe("the oif-spec-1 dialect against the specification's own schemas", () => {
  let devnet: HubTestDevnet;
  let stack: SubmissionStack;
  let permit2User: User;
  let eip3009User: User;
  let subjects = 0;

  before(async () => {
    // Blocks every second, so that the states between two transactions last long enough to be read.
    devnet = await startHubTestDevnet({ blockTimeSeconds: 1 });
    stack = await startSubmissionStack(devnet, {
      gatewayTimeoutMs: 5000,
      providerTimeoutMs: 5000,
      dialect: "oif-spec-1",
    });
    permit2User = devnet.manifest.users[1]!;
    eip3009User = devnet.manifest.users[2]!;
    await approvePermit2(stack, permit2User, "TKN");
  });

  after(async () => {
    await stack?.stop();
    await devnet?.stop();
    await disposeSubmissionDatabases();
  });

  async function setSolverKnobs(knobs: Record<string, unknown> | undefined): Promise<void> {
    for (const solver of ["alpha", "beta"]) {
      if (knobs) await devnet.control("POST", `/solvers/${solver}/faults`, knobs);
      else await devnet.control("DELETE", `/solvers/${solver}/faults`);
    }
  }

  async function quote(
    symbol: "USDC" | "TKN",
  ): Promise<{ user: User; subject: string; winner: QuoteWinner }> {
    const user = symbol === "TKN" ? permit2User : eip3009User;
    const subject = `conformance-${++subjects}`;
    const amount = symbol === "TKN" ? "1000000000000000000" : "2000000";
    return { user, subject, winner: await quoteFor(stack, user, subject, symbol, amount) };
  }

  async function openFor(symbol: "USDC" | "TKN"): Promise<OpenForAck> {
    const { user, subject, winner } = await quote(symbol);
    const answer = await postSignedOpenFor(stack, user, subject, winner);
    assert.equal(answer.envelope.success, true, answer.text);
    return openForAckSchema.parse(answer.envelope.data);
  }

  /** Reads the order from the devnet's spec aggregator (through the recording proxy) until `done`; the states seen. */
  async function follow(ack: OpenForAck, done: (status: unknown) => boolean): Promise<unknown[]> {
    const seen: unknown[] = [];
    await pollUntil(
      `order ${ack.orderId} reaches its last state`,
      async () => {
        const answer = await request(`${stack.proxy.url}/v1/orders/${ack.orderId.slice(2)}`);
        const status = ((await answer.body.json()) as { status?: unknown }).status;
        if (seen.at(-1) !== status) seen.push(status);
        return done(status) ? true : undefined;
      },
      { timeoutMs: 60_000, intervalMs: 30 },
    );
    return seen;
  }

  const forward = ["created", "pending", "executing", "executed", "settling", "settled", "finalized"];

  test("Permit2 and EIP-3009 orders read their states in order up to finalized", async () => {
    for (const symbol of ["TKN", "USDC"] as const) {
      const seen = await follow(await openFor(symbol), (status) => status === "finalized");
      const ranks = seen.map((status) => forward.indexOf(status as string));
      assert.ok(
        ranks.every((rank, i) => rank >= 0 && (i === 0 || rank > ranks[i - 1]!)),
        `${symbol}: ${seen}`,
      );
      assert.equal(seen.at(-1), "finalized");
    }
  });

  test("a solver stalled after the fill reads executed (the state a working solver leaves within one step)", async (t) => {
    await setSolverKnobs({ stallAfterExecuted: true });
    t.after(() => setSolverKnobs(undefined));
    await follow(await openFor("TKN"), (status) => status === "executed");
  });

  for (const stage of failStages)
    test(`failAt ${stage}: the order reads failed`, async (t) => {
      await setSolverKnobs({ failAt: stage });
      t.after(() => setSolverKnobs(undefined));
      const seen = await follow(await openFor("TKN"), (status) => status === "failed");
      assert.equal(seen.at(-1), "failed");
    });

  test("a solver's refusal is a rejected PostOrderResponse (EIN0021 at the hub)", async (t) => {
    await setSolverKnobs({ refuseOrders: true });
    t.after(() => setSolverKnobs(undefined));
    const { user, subject, winner } = await quote("TKN");
    assert.equal(codeOf(await postSignedOpenFor(stack, user, subject, winner)), "EIN0021");
  });

  test("the proxy lanes' quotes and unsigned registrations (signature 0x) are acked and read created until the wallet opens them", async () => {
    const user = devnet.manifest.users[3]!;
    const undeclared = devnet.manifest.chains[0]!.contracts.undeclaredToken.toLowerCase();
    const usdcOut = stack.destination.assets.find((a) => a.symbol === "USDC")!.key;
    for (const [lane, sourceAsset, destinationAsset, amount] of [
      ["oif-wrap-native", stack.origin.nativeKey, stack.destination.wrappedKey, "300000000000000000"],
      ["oif-swap-token", `${stack.origin.chainDomain}/erc20:${undeclared}`, usdcOut, "40000000000000000000"],
    ] as const) {
      const subject = `conformance-${++subjects}`;
      const quoted = await stack.api("POST", "/v1/quote", {
        subject,
        json: { sourceAsset, destinationAsset, amount, recipient: user.address, sourceAccount: user.address },
      });
      assert.equal(quoted.envelope.success, true, quoted.text);
      const winner = quoted.envelope.data as QuoteWinner;
      assert.equal(winner.lane, lane);
      const answer = await stack.api("POST", "/v1/order/openfor", {
        subject,
        json: { quoteRequestId: winner.quoteRequestId, quoteId: winner.quoteId },
      });
      assert.equal(answer.envelope.success, true, answer.text);
      const ack = openForAckSchema.parse(answer.envelope.data);
      assert.deepEqual(await follow(ack, (status) => status === "created"), ["created"]);
    }
  });

  test("a deposit refunded on chain while the solver waits for the proof reads refunded", async (t) => {
    // The committee holds the proof for a day (off-chain clock) while the chains move past `expires`.
    await devnet.control("PUT", "/committee/delay", { delayMs: 86_400_000 });
    t.after(() => devnet.control("PUT", "/committee/delay", { delayMs: 2000 }));
    const ack = await openFor("TKN");
    await follow(ack, (status) => status === "settling");
    for (const chain of devnet.manifest.chains)
      await devnet.control("POST", `/chains/${chain.chainId}/increase-time`, { seconds: 86_400 });
    // Filled orders are not offered a refund step by the hub: the user calls the escrow with the opened order.
    const client = stack.chains.get(stack.origin.chainId);
    const escrow = stack.origin.inputSettlers.escrow as Hex;
    const [open] = await client.publicClient.getContractEvents({
      address: escrow,
      abi: inputSettlerEscrowAbi,
      eventName: "Open",
      args: { orderId: ack.orderId as Hex },
      fromBlock: 0n,
    });
    assert.ok(open?.args.order, "the Open is on chain");
    const hash = await client.wallet(permit2User).writeContract({
      address: escrow,
      abi: inputSettlerEscrowAbi,
      functionName: "refund",
      args: [open.args.order],
    });
    assert.equal((await client.publicClient.waitForTransactionReceipt({ hash })).status, "success");
    await follow(ack, (status) => status === "refunded");
  });

  test("every request the hub sent and every answer the devnet gave holds to the specification's schemas", () => {
    const exchanges = stack.proxy.exchanges;
    const problems: string[] = [];
    const check = (exchange: UpstreamExchange, what: string, schema: SpecSchema, value: unknown) => {
      const problem = problemsOf(schema, value);
      if (problem) problems.push(`${exchange.method} ${exchange.path} ${what}: ${problem}`);
    };
    const extra = (exchange: UpstreamExchange, what: string, value: unknown, known: readonly string[]) => {
      const keys = extraKeys(value, known);
      if (keys.length > 0)
        problems.push(`${exchange.method} ${exchange.path} ${what} beyond the spec: ${keys}`);
    };
    const orderTypes = new Set<string>();
    const submissionStatuses = new Set<string>();
    const orderStatuses = new Set<string>();
    for (const exchange of exchanges) {
      if (exchange.method === "POST" && exchange.path === "/v1/quotes") {
        check(exchange, "request", specSchemas.getQuoteRequest, exchange.request);
        const sent = extraKeys(exchange.request, specKeys.getQuoteRequest);
        assert.deepEqual(
          sent.filter((key) => !EXTRA_REQUEST_FIELDS.includes(key)),
          [],
          "only documented fields",
        );
        if (exchange.status !== 200) continue;
        check(exchange, "answer", specSchemas.getQuoteResponse, exchange.answer);
        for (const quote of (exchange.answer as { quotes: { order: { type: string } }[] }).quotes) {
          extra(exchange, "quote", quote, specKeys.quote);
          orderTypes.add(quote.order.type);
        }
      } else if (exchange.method === "POST" && exchange.path === "/v1/orders") {
        check(exchange, "request", specSchemas.postOrderRequest, exchange.request);
        extra(exchange, "request", exchange.request, specKeys.postOrderRequest);
        check(exchange, "answer", specSchemas.postOrderResponse, exchange.answer);
        extra(exchange, "answer", exchange.answer, specKeys.postOrderResponse);
        submissionStatuses.add((exchange.answer as { status: string }).status);
      } else if (exchange.method === "GET" && exchange.path.startsWith("/v1/orders/")) {
        assert.equal(exchange.status, 200, JSON.stringify(exchange));
        check(exchange, "answer", specSchemas.getOrderResponse, exchange.answer);
        extra(exchange, "answer", exchange.answer, specKeys.getOrderResponse);
        orderStatuses.add((exchange.answer as { status: string }).status);
      } else {
        problems.push(`unexpected call ${exchange.method} ${exchange.path}`);
      }
    }
    assert.deepEqual(problems, []);
    assert.deepEqual([...orderTypes].sort(), ["oif-3009-v0", "oif-escrow-v0"], "every OIF order type quoted");
    assert.deepEqual(
      [...submissionStatuses].sort(),
      ["received", "rejected"],
      "accepted and refused submissions",
    );
    assert.deepEqual(
      [...orderStatuses].sort(),
      Object.values(OrderStatus).sort(),
      "every order state of the specification",
    );
  });
});
