import assert from "node:assert/strict";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, beforeEach, describe, test } from "node:test";
import { decodeSolanaInteropAddress, solanaOifChainId } from "@hub/chain";
import { systemClock } from "@hub/clock";
import { type Catalog, type CatalogSolanaChain, quoteWinnerSchema } from "@hub/contract";
import { type SolanaDevnet, startSolanaDevnet } from "@hub/devnet-app";
import { findAssociatedTokenPda, TOKEN_PROGRAM_ADDRESS } from "@solana-program/token";
import { address } from "@solana/kit";
import { pino } from "pino";
import type { SolanaQuoteTemplate } from "../src/quotes/solana-quote-template.js";
import { testCatalog } from "./hub-fixture.js";
import { type ExternalStandIn, startExternalStandIn } from "./open-flow-quotes-stand-in.js";
import { dataOf, disposeQuoteDatabases, type QuoteHub, startQuoteHub } from "./quote-hub.js";
import { evmToSolanaAnswer, type SolanaAnswerTerms, solanaAnswer } from "./solana-quote-answers.js";
import { readQuoteRows } from "./store/quote-rows.js";

// biome-ignore lint/suspicious/noExplicitAny: upstream JSON as the stand-in serves it.
type Json = Record<string, any>;

const USDC = "0x00000000000000000000000000000000000000aa" as const;
const USDC_KEY = `eip155:31337/erc20:${USDC}`;
const EVM_USER = "0x70997970c51812dc3a010c7d01b50e0d17dc79c8" as const;
const PROVIDER = "sol";

function catalogWith(solana: SolanaDevnet): { catalog: Catalog; chain: CatalogSolanaChain } {
  const { manifest } = solana;
  const chain: CatalogSolanaChain = {
    chainDomain: manifest.chainDomain,
    name: "Solana devnet",
    genesisHash: manifest.genesisHash,
    oifChainId: solanaOifChainId(manifest.genesisHash).toString(),
    native: { symbol: "SOL", decimals: 9 },
    nativeKey: `${manifest.chainDomain}/slip44:501`,
    escrow: { settler: manifest.escrow.settler.address, vaults: manifest.escrow.vaults },
    outputSettler: manifest.escrow.settler.address,
    assets: manifest.tokens.map(({ assetKey, symbol, decimals, mint }) => ({
      key: assetKey,
      symbol,
      decimals,
      mint,
    })),
  };
  const catalog = testCatalog();
  return { catalog: { families: { evm: catalog.families.evm, solana: [chain] } }, chain };
}

describe("quotes on the Solana lane", () => {
  let solana: SolanaDevnet;
  let standIn: ExternalStandIn;
  let hub: QuoteHub;
  let catalog: Catalog;
  let chain: CatalogSolanaChain;
  let sender: string;
  let recipientKey: string;
  let feePayer: string;
  let mint: string;
  let solanaUsdcKey: string;
  /** The answers the stand-in gives, by the order type asked for. */
  let answers: Partial<Record<string, Json[]>>;

  before(async () => {
    solana = await startSolanaDevnet({
      rpcPort: 0,
      clock: systemClock,
      evmChains: [],
      logger: pino({ level: "silent" }),
    });
    ({ catalog, chain } = catalogWith(solana));
    sender = solana.manifest.users[0]!.address;
    recipientKey = solana.manifest.users[1]!.address;
    feePayer = solana.manifest.solvers[0]!.address;
    mint = solana.manifest.tokens[0]!.mint;
    solanaUsdcKey = solana.manifest.tokens[0]!.assetKey;
    standIn = await startExternalStandIn();
    standIn.answer = (request) => ({
      status: 200,
      body: { quotes: answers[(request.supportedTypes as string[])[0]!] ?? [] },
    });
    hub = await startQuoteHub({
      catalog,
      providers: [
        {
          id: PROVIDER,
          kind: "oif-aggregator",
          baseUrl: standIn.url,
          products: ["oif-escrow-v0", "oif-3009-v0", "oif-svm-escrow-v0"],
          solanaFeePayers: { alpha: feePayer, beta: solana.manifest.solvers[1]!.address },
        },
      ],
      solanaChains: [{ chainDomain: solana.manifest.chainDomain, rpcUrl: solana.manifest.rpcUrl }],
    });
  });

  after(async () => {
    await hub?.stop();
    await standIn?.close();
    await solana?.stop();
    await disposeQuoteDatabases();
  });

  beforeEach(() => {
    answers = {};
    standIn.received.length = 0;
  });

  function solanaSource(extra: Json = {}): Json {
    return {
      sourceAsset: solanaUsdcKey,
      destinationAsset: USDC_KEY,
      amount: "1000000",
      recipient: EVM_USER,
      sourceAccount: sender,
      ...extra,
    };
  }

  function terms(overrides: Partial<SolanaAnswerTerms> = {}): SolanaAnswerTerms {
    return {
      solverId: "alpha",
      quoteId: "sq-1",
      sender,
      feePayer,
      chain,
      mint,
      decimals: 6,
      amount: 1_000_000n,
      outputAmount: 997_000n,
      destination: catalog.families.evm[0]!,
      destinationToken: USDC,
      recipient: EVM_USER,
      blockhash: solana.chain.latestBlockhash().blockhash,
      nowSeconds: Math.floor(Date.now() / 1000),
      ...overrides,
    };
  }

  async function refusal(body: Json): Promise<{ code: string; reference: string | undefined }> {
    const { envelope } = await hub.post("/v1/quote", body);
    assert.equal(envelope.success, false);
    const error = envelope.errors![0]!;
    return { code: error.error_code, reference: error.error_reference };
  }

  test("a quote for a Solana source without sourceAccount is EIN0001 on sourceAccount, before any upstream call", async () => {
    const { sourceAccount: _, ...body } = solanaSource();
    assert.deepEqual(await refusal(body), { code: "EIN0001", reference: "sourceAccount" });
    assert.equal(standIn.received.length, 0);
  });

  test("a malformed Solana recipient is EIN0001 on recipient", async () => {
    const body = {
      sourceAsset: USDC_KEY,
      destinationAsset: solanaUsdcKey,
      amount: "1000000",
      recipient: "0OIl-not-base58",
      sourceAccount: EVM_USER,
    };
    assert.deepEqual(await refusal(body), { code: "EIN0001", reference: "recipient" });
    const tooLong = { ...body, recipient: "1".repeat(5000) };
    assert.deepEqual(await refusal(tooLong), { code: "EIN0001", reference: "recipient" });
  });

  test("native SOL, and Solana to Solana, take no lane (EIN0008)", async () => {
    assert.equal((await refusal(solanaSource({ sourceAsset: chain.nativeKey }))).code, "EIN0008");
    const toSolana = solanaSource({ destinationAsset: solanaUsdcKey, recipient: recipientKey });
    assert.equal((await refusal(toSolana)).code, "EIN0008");
    assert.equal(standIn.received.length, 0);
  });

  test("a Solana → EVM winner discloses the vetted message to sign, its escrow order id, and stores what submission needs", async () => {
    const answer = await solanaAnswer(terms());
    answers["oif-svm-escrow-v0"] = [answer];
    const winner = quoteWinnerSchema.parse(dataOf(await hub.post("/v1/quote", solanaSource())));
    const payload = answer.order.payload;
    assert.equal(winner.lane, "oif-escrow-nonevm");
    assert.equal(winner.provider, `${PROVIDER}.alpha`);
    assert.deepEqual(winner.signPayload, {
      transactionMessage: payload.transactionMessage,
      digest: payload.digest,
      sender,
      feePayer,
    });
    assert.equal(winner.onchainOrderId, payload.escrowOrder.orderId);
    assert.deepEqual(winner.input, { asset: solanaUsdcKey, amount: "1000000" });
    assert.deepEqual(winner.output, { asset: USDC_KEY, amount: "997000" });
    assert.equal(winner.sourceAccount, sender);
    assert.equal(winner.disclosure.signablePayload.kind, "oif-escrow-nonevm");

    const [asked] = standIn.received;
    assert.deepEqual(asked!.supportedTypes, ["oif-svm-escrow-v0"]);
    assert.deepEqual(asked!.intent.originSubmission, { mode: "user", schemes: ["ed25519"] });
    assert.deepEqual(decodeSolanaInteropAddress(asked!.user), {
      genesisHash: chain.genesisHash,
      address: sender,
    });
    assert.deepEqual(decodeSolanaInteropAddress(asked!.intent.inputs[0].asset), {
      genesisHash: chain.genesisHash,
      address: mint,
    });

    const [row] = await readQuoteRows<Json>(hub.db.sql, winner.quoteId);
    const template = (
      typeof row!.template === "string" ? JSON.parse(row!.template) : row!.template
    ) as SolanaQuoteTemplate;
    assert.equal(template.signatureScheme, "ed25519");
    assert.equal(template.solana.transactionMessage, payload.transactionMessage);
    assert.equal(template.solana.sender, sender);
    assert.equal(template.solana.feePayer, feePayer);
    assert.equal(template.onchainOrderId, payload.escrowOrder.orderId);
    assert.deepEqual(template.solana.escrowOrder, payload.escrowOrder, "the terms stored with their nonce");
    assert.deepEqual(template.quoteResponse, { ...answer, solverId: "alpha" });
    assert.equal(row!.onchain_order_id, payload.escrowOrder.orderId);
  });

  test("an EVM → Solana Permit2 winner holds its output to the Solana chain, mint, recipient and output settler", async () => {
    answers["oif-escrow-v0"] = [
      evmToSolanaAnswer({
        solverId: "alpha",
        quoteId: "eq-1",
        source: catalog.families.evm[0]!,
        token: USDC,
        user: EVM_USER,
        amount: 1_000_000n,
        outputAmount: 997_000n,
        chain,
        mint,
        recipient: recipientKey,
        nowSeconds: Math.floor(Date.now() / 1000),
      }),
    ];
    const body = {
      sourceAsset: USDC_KEY,
      destinationAsset: solanaUsdcKey,
      amount: "1000000",
      recipient: recipientKey,
      sourceAccount: EVM_USER,
    };
    const winner = quoteWinnerSchema.parse(dataOf(await hub.post("/v1/quote", body)));
    assert.equal(winner.lane, "oif-escrow-gasless");
    assert.equal(winner.recipient, recipientKey);
    assert.deepEqual(winner.output, { asset: solanaUsdcKey, amount: "997000" });
    const asked = standIn.received.find((request) => request.supportedTypes[0] === "oif-escrow-v0")!;
    assert.deepEqual(decodeSolanaInteropAddress(asked.intent.outputs[0].receiver), {
      genesisHash: chain.genesisHash,
      address: recipientKey,
    });

    // The same answer paying another Solana recipient is discarded.
    answers["oif-escrow-v0"] = [
      evmToSolanaAnswer({
        solverId: "alpha",
        quoteId: "eq-2",
        source: catalog.families.evm[0]!,
        token: USDC,
        user: EVM_USER,
        amount: 1_000_000n,
        outputAmount: 997_000n,
        chain,
        mint,
        recipient: sender,
        nowSeconds: Math.floor(Date.now() / 1000),
      }),
    ];
    assert.equal((await refusal(body)).code, "EIN0008");
  });

  async function discarded(answer: Json, reason: string): Promise<void> {
    const before = await hub.metric("hub_quote_vetting_rejections_total", { provider: PROVIDER, reason });
    answers["oif-svm-escrow-v0"] = [answer];
    assert.equal((await refusal(solanaSource())).code, "EIN0008", "nothing else quoted");
    const counted = await hub.metric("hub_quote_vetting_rejections_total", { provider: PROVIDER, reason });
    assert.equal(counted, before + 1, `counted under ${reason}`);
  }

  test("an upstream message with an extra instruction is discarded (instruction)", async () => {
    await discarded(await solanaAnswer(terms({ tamper: { extraInstruction: true } })), "instruction");
  });

  test("an upstream answer with another fee payer is discarded (fee-payer)", async () => {
    const other = solana.manifest.users[2]!.address;
    await discarded(await solanaAnswer(terms({ feePayer: other })), "fee-payer");
    // A solver without a declared key, and the sender as its own fee payer, are discarded alike.
    await discarded(await solanaAnswer(terms({ solverId: "gamma" })), "fee-payer");
  });

  test("an upstream message moving a bigger amount than the quote says is discarded (amount)", async () => {
    await discarded(await solanaAnswer(terms({ tamper: { transferAmount: 1_000_001n } })), "amount");
  });

  test("an upstream message paying another vault is discarded (vault)", async () => {
    const [elsewhere] = await findAssociatedTokenPda({
      owner: address(solana.manifest.users[3]!.address),
      mint: address(mint),
      tokenProgram: TOKEN_PROGRAM_ADDRESS,
    });
    await discarded(await solanaAnswer(terms({ tamper: { vault: elsewhere } })), "vault");
  });

  test("a message whose blockhash the chain never handed out is discarded (blockhash)", async () => {
    await discarded(await solanaAnswer(terms({ blockhash: sender })), "blockhash");
  });

  test("a Solana RPC that does not answer makes a Solana-source round EIN0050, not EIN0008", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const deadRpcUrl = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const blind = await startQuoteHub({
      catalog,
      providers: [
        {
          id: PROVIDER,
          kind: "oif-aggregator",
          baseUrl: standIn.url,
          products: ["oif-svm-escrow-v0"],
          solanaFeePayers: { alpha: feePayer },
        },
      ],
      solanaChains: [{ chainDomain: chain.chainDomain, rpcUrl: deadRpcUrl }],
    });
    try {
      const before = await blind.metric("hub_quote_vetting_rejections_total", {
        provider: PROVIDER,
        reason: "blockhash",
      });
      answers["oif-svm-escrow-v0"] = [await solanaAnswer(terms())];
      const { envelope } = await blind.post("/v1/quote", solanaSource());
      assert.equal(envelope.success, false);
      assert.equal(envelope.errors![0]!.error_code, "EIN0050");
      const counted = await blind.metric("hub_quote_vetting_rejections_total", {
        provider: PROVIDER,
        reason: "blockhash",
      });
      assert.equal(counted, before + 1, "the answer is still discarded under blockhash");
    } finally {
      await blind.stop();
    }
  });

  test("an escrowOrder nonce that does not hash to the order id is discarded (order-id)", async () => {
    const answer = await solanaAnswer(terms({ nonce: 41n }));
    answer.order.payload.escrowOrder.nonce = "42";
    await discarded(answer, "order-id");
    const missing = await solanaAnswer(terms());
    delete missing.order.payload.escrowOrder.nonce;
    await discarded(missing, "order-id");
    const tooWide = await solanaAnswer(terms());
    tooWide.order.payload.escrowOrder.nonce = (1n << 64n).toString();
    await discarded(tooWide, "order-id");
  });

  test("a digest that is not the message's checksum is discarded (digest)", async () => {
    const answer = await solanaAnswer(terms());
    answer.order.payload.digest = sender;
    await discarded(answer, "digest");
  });
});
