import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import {
  addressToBytes32,
  solanaKeyToBytes32,
  solanaOifChainId,
  solanaOutputHash,
  type StandardOrderJson,
} from "@hub/chain";
import { createAdjustableClock } from "@hub/clock";
import type { OnchainFill, OnchainRefund, OnchainTxOrder, OrdersList } from "@hub/contract";
import { createTestDatabases, type TestDatabase } from "@hub/store";
import { address } from "@solana/kit";
import {
  findAssociatedTokenPda,
  getCreateAssociatedTokenIdempotentInstruction,
  getTransferCheckedInstruction,
  TOKEN_PROGRAM_ADDRESS,
} from "@solana-program/token";
import { createNoopSigner } from "@solana/kit";
import { pino } from "pino";
import {
  compileSolanaDeposit,
  devnetSolanaKeypair,
  memoInstruction,
  type SolanaDevnet,
  type SolanaKeypair,
  sendDevnetTransaction,
  solanaDepositInstructions,
  solanaKeypairFromSecretKey,
  startSolanaDevnet,
} from "../../devnet/src/solana/index.js";
import type { HubApp } from "../src/index.js";
import { createReconciler, type Reconciler, type TickResult } from "../src/reconciler/index.js";
import type { SolanaQuoteBlock } from "../src/quotes/solana-quote-template.js";
import { chainFamilies } from "../src/chains/chain-families.js";
import { solanaAssociatedTokenAccount } from "../src/chains/solana/solana-associated-token-account.js";
import { solanaReconcilerChainsFromManifest } from "../src/chains/solana/solana-reconciler-chains.js";
import { createChainFactsStore } from "../src/store/chain-facts-store.js";
import { type AcceptingAggregator, startAcceptingAggregator } from "./fixtures/accepting-aggregator.js";
import { call, createTestHubApp, envelopeOf, SUBJECT } from "./hub-fixture.js";
import { seedSolanaQuote } from "./store/quote-rows.js";

const databases = createTestDatabases({ databaseUrl: process.env.DATABASE_URL });
const logger = pino({ level: "silent" });
const ORG = "org_test";
const clock = createAdjustableClock();

let db: TestDatabase;
let solana: SolanaDevnet;
let upstream: AcceptingAggregator;
let hub: HubApp;
let seq = 0;
const running: Reconciler[] = [];

before(async () => {
  db = await databases.open(process.env.DATABASE_URL ? "postgres" : "pglite");
  // The settler's refund loop is driven by the tests (escrow.refund), never on its own.
  solana = await startSolanaDevnet({ rpcPort: 0, clock, pollIntervalMs: 3_600_000, evmChains: [], logger });
  upstream = await startAcceptingAggregator(
    (body) =>
      (body.quoteResponse as { order: { payload: { escrowOrder: { orderId: string } } } }).order.payload
        .escrowOrder.orderId,
  );
  hub = createTestHubApp({
    sql: db.sql,
    providers: [{ id: "devnet", dialect: "oif-aggregator", baseUrl: upstream.url, timeoutMs: 10_000 }],
  });
});
after(async () => {
  for (const r of running) await r.stop();
  await hub.close();
  await upstream.close();
  await solana.stop();
  await db.dispose();
  await databases.dispose();
});

/** A fresh reconciler instance; earlier ones are stopped first, so it takes the lease. */
async function reconciler(): Promise<Reconciler> {
  for (const r of running.splice(0)) await r.stop();
  return anotherReconciler();
}

/** One more instance on the same lease, leaving the running ones alone. */
function anotherReconciler(): Reconciler {
  const created = createReconciler({
    sql: db.sql,
    chains: [],
    indexers: solanaReconcilerChainsFromManifest({ solana: solana.manifest }).map((chain) =>
      chainFamilies.solana.indexer(chain, {}),
    ),
    clock,
    logger,
    leaseName: "reconciler-solana",
  });
  running.push(created);
  return created;
}

function assertNoErrors(result: TickResult): TickResult {
  assert.equal(result.leader, true);
  for (const chain of result.chains) assert.equal(chain.error, undefined, chain.error);
  return result;
}

async function read<T>(url: string, headers: Record<string, string> = {}): Promise<T> {
  const envelope = envelopeOf(await call(hub, "GET", url, { headers }));
  assert.equal(envelope.success, true, JSON.stringify(envelope));
  return envelope.data as T;
}

const mint = () => address(solana.manifest.tokens[0]?.mint as string);
const domain = () => solana.manifest.chainDomain;
const user = (i: number) => solanaKeypairFromSecretKey(solana.manifest.users[i]?.secretKey as string);
const solver = () => solanaKeypairFromSecretKey(solana.manifest.solvers[0]?.secretKey as string);
const vault = () => address(solana.manifest.escrow.vaults[0]?.vault as string);

/** A Solana → EVM order as the hub quoted it, registered with the escrow and acked through POST /order/openfor. */
async function solanaOrder(
  owner: SolanaKeypair,
  expiresInSeconds: number,
  upstreamWords?: (block: SolanaQuoteBlock) => Record<string, unknown>,
) {
  seq += 1;
  const now = Math.floor(clock.now() / 1000);
  const fillDeadline = now + Math.min(expiresInSeconds, 300);
  const output = {
    oracle: `0x${"11".repeat(32)}`,
    settler: `0x${"22".repeat(32)}`,
    chainId: "31337",
    token: addressToBytes32(`0x${"33".repeat(20)}`),
    amount: String(4_000_000 + seq),
    recipient: addressToBytes32(`0x${"44".repeat(20)}`),
    callbackData: "0x",
    context: "0x",
  };
  const amount = 5_000_000n + BigInt(seq);
  const outputHash = solanaOutputHash(fillDeadline, {
    ...output,
    chainId: BigInt(output.chainId),
    amount: BigInt(output.amount),
  } as never);
  const terms = {
    user: owner.address,
    mint: mint(),
    amount,
    expires: now + expiresInSeconds,
    nonce: BigInt(seq),
    outputHash,
  };
  const orderId = solana.escrow.register(terms);
  const [source] = await findAssociatedTokenPda({
    owner: owner.address,
    mint: mint(),
    tokenProgram: TOKEN_PROGRAM_ADDRESS,
  });
  const deposit = {
    user: owner.address,
    source,
    mint: mint(),
    decimals: 6,
    vault: vault(),
    amount,
    orderId,
  };
  const lifetime = solana.chain.latestBlockhash();
  const compiled = compileSolanaDeposit({ ...deposit, feePayer: solver().address, lifetime });
  const message = Uint8Array.from(compiled.messageBytes);
  const block: SolanaQuoteBlock = {
    chainDomain: domain(),
    transactionMessage: Buffer.from(message).toString("base64"),
    digest: "-",
    sender: owner.address,
    feePayer: solver().address,
    recentBlockhash: lifetime.blockhash,
    vault: vault(),
    escrowOrder: { ...terms, amount: amount.toString(), nonce: terms.nonce.toString(), orderId },
    fillDeadline,
    output,
  };
  const quote = await seedSolanaQuote(db.sql, {
    quoteId: `q-sol-rec-${seq}`,
    orgId: ORG,
    solana: block,
    ...(upstreamWords ? { upstreamWords: upstreamWords(block) } : {}),
  });
  const envelope = Buffer.concat([
    Buffer.from([0]),
    owner.sign(message),
    Buffer.from(solanaKeyToBytes32(owner.address).slice(2), "hex"),
  ]).toString("base64");
  const ack = envelopeOf(
    await call(hub, "POST", "/v1/order/openfor", {
      headers: SUBJECT,
      json: { ...quote, signature: envelope },
    }),
  );
  assert.equal(ack.success, true, JSON.stringify(ack));
  return {
    orderId,
    hubOrderId: (ack.data as { hubOrderId: string }).hubOrderId,
    /** The deposit as the solver sends it: its fee payer, the user's signature beside it. */
    deposit: () => sendDevnetTransaction(solana.chain, solver(), solanaDepositInstructions(deposit), [owner]),
  };
}

async function listEntry(hubOrderId: string) {
  const list = await read<OrdersList>("/v1/orders?limit=100", SUBJECT);
  const entry = list.orders.find((order) => order.orderId === hubOrderId);
  assert.ok(entry, `order ${hubOrderId} is listed`);
  return entry;
}

describe("the reconciler reads the Solana chain (devnet litesvm over its JSON-RPC)", () => {
  test("the hub's associated token account is the SPL one", async () => {
    for (let i = 0; i < 20; i += 1) {
      const owner = devnetSolanaKeypair(`ata check ${i}`).address;
      const [expected] = await findAssociatedTokenPda({
        owner,
        mint: mint(),
        tokenProgram: TOKEN_PROGRAM_ADDRESS,
      });
      assert.equal(solanaAssociatedTokenAccount(owner, mint()), expected);
    }
  });

  test("a deposit into the vault reads OPEN and the settler's release SETTLED, in the list's chain, the fill view, the transaction view and the refund view", async () => {
    const r = await reconciler();
    const order = await solanaOrder(user(0), 3600);
    const deposit = order.deposit();
    assertNoErrors(await r.tick());

    const opened = await read<OnchainFill>(`/v1/onchain/${order.orderId}/fill`);
    assert.equal(opened.status, "OPEN");
    assert.deepEqual([opened.filled, opened.settled], [false, false]);
    assert.equal(opened.openTx?.txHash, deposit.signature);
    assert.equal(opened.openTx?.blockNumber, deposit.slot);
    assert.equal(opened.openTx?.chainDomain, domain());
    assert.ok(opened.watermarks.some((watermark) => watermark.chainDomain === domain()));
    const entry = await listEntry(order.hubOrderId);
    assert.equal(entry.chain?.status, "OPEN");
    assert.equal(entry.chain?.openTx?.txHash, deposit.signature);
    assert.equal(entry.chain?.sponsor, user(0).address);
    assert.ok(entry.chain?.expires, "the expiry from the order's terms");
    const byTx = await read<OnchainTxOrder>(`/v1/onchain/tx/${domain()}/${deposit.signature}/order`);
    assert.deepEqual([byTx.orderId, byTx.event], [order.orderId, "open"]);
    const early = await read<OnchainRefund>(`/v1/onchain/${order.orderId}/refund`);
    assert.deepEqual([early.refundable, early.reason], [false, "not-expired"]);
    assert.deepEqual(early.step, {
      chainDomain: domain(),
      sentBy: "escrow-settler",
      settler: solana.manifest.escrow.settler.address,
      payee: user(0).address,
      memo: `refund:${order.orderId}`,
    });

    const release = await solana.escrow.release(order.orderId, solver().address);
    assertNoErrors(await r.tick());
    const settled = await read<OnchainFill>(`/v1/onchain/${order.orderId}/fill`);
    assert.equal(settled.status, "SETTLED");
    assert.deepEqual([settled.filled, settled.settled], [true, true]);
    assert.equal(settled.settledTx?.txHash, release);
    assert.equal((await listEntry(order.hubOrderId)).chain?.status, "SETTLED");
    const releaseTx = await read<OnchainTxOrder>(`/v1/onchain/tx/${domain()}/${release}/order`);
    assert.deepEqual([releaseTx.orderId, releaseTx.event], [order.orderId, "settle"]);
    const late = await read<OnchainRefund>(`/v1/onchain/${order.orderId}/refund`);
    assert.deepEqual([late.refundable, late.reason, late.step], [false, "settled", undefined]);
  });

  test("an unfilled deposit past its expiry reads refundable with the settler's refund as the step, then REFUNDED once the settler refunds the user", async () => {
    const r = await reconciler();
    const order = await solanaOrder(user(1), 60);
    const deposit = order.deposit();
    assertNoErrors(await r.tick());
    assert.equal((await read<OnchainRefund>(`/v1/onchain/${order.orderId}/refund`)).reason, "not-expired");

    clock.advance(120_000);
    // Chain time is what the vault's newest transaction says: another order's deposit moves it on.
    (await solanaOrder(user(2), 3600)).deposit();
    assertNoErrors(await r.tick());
    const due = await read<OnchainRefund>(`/v1/onchain/${order.orderId}/refund`);
    assert.deepEqual([due.refundable, due.reason], [true, "refundable"]);
    assert.ok(due.step && "sentBy" in due.step && due.step.payee === user(1).address);

    const refunded = await solana.escrow.refund(order.orderId);
    assertNoErrors(await r.tick());
    const after = await read<OnchainRefund>(`/v1/onchain/${order.orderId}/refund`);
    assert.deepEqual([after.refundable, after.reason], [false, "refunded"]);
    assert.equal(after.refundedTx?.txHash, refunded);
    const fill = await read<OnchainFill>(`/v1/onchain/${order.orderId}/fill`);
    assert.equal(fill.status, "REFUNDED");
    assert.equal(fill.openTx?.txHash, deposit.signature);
    assert.equal((await listEntry(order.hubOrderId)).chain?.status, "REFUNDED");
    const refundTx = await read<OnchainTxOrder>(`/v1/onchain/tx/${domain()}/${refunded}/order`);
    assert.deepEqual([refundTx.orderId, refundTx.event], [order.orderId, "refund"]);
  });

  test("a deposit's terms are the quote's vetted ones, not the upstream's words: an answer with its uints as JSON numbers and its hashes in capitals reads OPEN with its sponsor and expiry", async () => {
    const r = await reconciler();
    const order = await solanaOrder(user(6), 3600, ({ escrowOrder, output }) => ({
      escrowOrder: {
        ...escrowOrder,
        amount: Number(escrowOrder.amount),
        outputHash: `0x${escrowOrder.outputHash.slice(2).toUpperCase()}`,
      },
      output: { ...output, chainId: Number(output.chainId), amount: Number(output.amount) },
    }));
    const deposit = order.deposit();
    assertNoErrors(await r.tick());
    const entry = await listEntry(order.hubOrderId);
    assert.equal(entry.chain?.status, "OPEN");
    assert.equal(entry.chain?.openTx?.txHash, deposit.signature);
    assert.equal(entry.chain?.sponsor, user(6).address);
    assert.ok(entry.chain?.expires, "the expiry from the order's terms");
  });

  test("the watermarks survive a restart: a new reconciler reads the vault on from the stored newest signature", async () => {
    const first = await reconciler();
    const order = await solanaOrder(user(3), 3600);
    const deposit = order.deposit();
    assertNoErrors(await first.tick());
    await first.stop();
    const store = createChainFactsStore(db.sql);
    const stored = await store.getSolanaAddressWatermark(domain(), vault());
    assert.equal(stored?.lastSignature, deposit.signature, "the vault's watermark is its newest signature");
    const chainMark = await store.getWatermark(domain());
    assert.ok(chainMark && chainMark.lastBlock >= deposit.slot);
    assert.equal(chainMark.oifChainId, solanaOifChainId(solana.manifest.genesisHash).toString());

    const second = await reconciler();
    const quiet = assertNoErrors(await second.tick());
    assert.deepEqual(
      quiet.chains.map((chain) => [chain.ranges, chain.factsWritten]),
      [[0, 0]],
      "nothing below the watermark is read again",
    );
    const next = (await solanaOrder(user(4), 3600)).deposit();
    const moved = assertNoErrors(await second.tick());
    assert.deepEqual(
      moved.chains.map((chain) => chain.factsWritten),
      [1],
    );
    assert.equal((await store.getSolanaAddressWatermark(domain(), vault()))?.lastSignature, next.signature);
  });

  test("only the lease holder reads the Solana chain: another instance's tick writes nothing", async () => {
    const leader = await reconciler();
    assertNoErrors(await leader.tick());
    const other = anotherReconciler();
    const deposit = (await solanaOrder(user(5), 3600)).deposit();
    assert.deepEqual(await other.tick(), { leader: false, chains: [], quotesPruned: 0 });
    const read = assertNoErrors(await leader.tick());
    assert.deepEqual(
      read.chains.map((chain) => chain.factsWritten),
      [1],
    );
    const store = createChainFactsStore(db.sql);
    assert.equal(
      (await store.getSolanaAddressWatermark(domain(), vault()))?.lastSignature,
      deposit.signature,
    );
  });

  test("an EVM order with a Solana output reads FILLED once the solver pays the recipient's token account with memo fill:<orderId>:<solver>", async () => {
    const r = await reconciler();
    const store = createChainFactsStore(db.sql);
    const recipient = devnetSolanaKeypair(`recipient ${seq}`);
    const oifChainId = solanaOifChainId(solana.manifest.genesisHash).toString();
    const now = Math.floor(clock.now() / 1000);
    const settler = solana.manifest.escrow.settler.address;
    const output = {
      oracle: solanaKeyToBytes32(settler),
      settler: solanaKeyToBytes32(settler),
      chainId: oifChainId,
      token: solanaKeyToBytes32(mint()),
      amount: "7000000",
      recipient: solanaKeyToBytes32(recipient.address),
      callbackData: "0x",
      context: "0x",
    };
    const order: StandardOrderJson = {
      user: `0x${"55".repeat(20)}`,
      nonce: "1",
      originChainId: "990001",
      expires: now + 1200,
      fillDeadline: now + 600,
      inputOracle: `0x${"66".repeat(20)}`,
      inputs: [["1", "7100000"]],
      outputs: [output],
    };
    const onchainOrderId = `0x${"ab".repeat(31)}${(seq + 16).toString(16).padStart(2, "0")}`;
    // The EVM side is the EVM reader's (tested on anvil): its Open is written as that reader writes it.
    const seedLease = { name: "seed-evm-open", holder: "seed" };
    assert.ok(await store.acquireReconcilerLease({ ...seedLease, ttlMs: 60_000 }));
    const block = { number: 10, hash: `0x${"77".repeat(32)}`, timestamp: now };
    await store.writeIndexedRange({
      chainDomain: "eip155:990001",
      chainId: 990001,
      expectedLastBlock: null,
      toBlock: block,
      logs: [
        {
          kind: "open",
          blockNumber: 10,
          blockHash: block.hash,
          txHash: `0x${"88".repeat(32)}`,
          logIndex: 0,
          settler: `0x${"99".repeat(20)}`,
          onchainOrderId,
          order,
        },
      ],
      blockTimestamps: new Map([[10, now]]),
      observedAt: new Date(clock.now()),
      lease: seedLease,
    });

    const solverKey = solver();
    const evmSolver = `0x${"ee".repeat(20)}`;
    const [solverAccount] = await findAssociatedTokenPda({
      owner: solverKey.address,
      mint: mint(),
      tokenProgram: TOKEN_PROGRAM_ADDRESS,
    });
    const [recipientAccount] = await findAssociatedTokenPda({
      owner: recipient.address,
      mint: mint(),
      tokenProgram: TOKEN_PROGRAM_ADDRESS,
    });
    const payer = createNoopSigner(solverKey.address);
    const fill = sendDevnetTransaction(solana.chain, solverKey, [
      getCreateAssociatedTokenIdempotentInstruction({
        payer,
        ata: recipientAccount,
        owner: recipient.address,
        mint: mint(),
      }),
      getTransferCheckedInstruction({
        source: solverAccount,
        mint: mint(),
        destination: recipientAccount,
        authority: payer,
        amount: 7_000_000n,
        decimals: 6,
      }),
      memoInstruction(`fill:${onchainOrderId}:${evmSolver}`),
    ]);
    assertNoErrors(await r.tick());

    const view = await read<OnchainFill>(`/v1/onchain/${onchainOrderId}/fill`);
    assert.equal(view.status, "FILLED");
    assert.equal(view.filled, true);
    assert.equal(view.fills.length, 1);
    const [observed] = view.fills;
    assert.equal(observed?.txHash, fill.signature);
    assert.equal(observed?.chainDomain, domain());
    assert.deepEqual(
      [observed?.amount, observed?.recipient, observed?.solver, observed?.outputIndex, observed?.inTime],
      ["7000000", output.recipient, addressToBytes32(evmSolver as `0x${string}`), 0, true],
    );
    const byTx = await read<OnchainTxOrder>(`/v1/onchain/tx/${domain()}/${fill.signature}/order`);
    assert.deepEqual([byTx.orderId, byTx.event], [onchainOrderId, "fill"]);
  });
});
