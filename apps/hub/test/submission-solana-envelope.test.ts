import assert from "node:assert/strict";
import { generateKeyPairSync, type KeyObject, randomBytes, sign } from "node:crypto";
import { after, afterEach, before, describe, test } from "node:test";
import { encodeBase58 } from "@hub/chain";
import { createTestDatabases, type TestDatabase } from "@hub/store";
import type { HubApp } from "../src/index.js";
import { type AcceptingAggregator, startAcceptingAggregator } from "./fixtures/accepting-aggregator.js";
import { assertRefusal, call, createTestHubApp, envelopeOf, SUBJECT } from "./hub-fixture.js";
import { seedSolanaQuote } from "./store/quote-rows.js";
import { countSubmissions, readSubmissionOnchainId } from "./store/submission-rows.js";

const databases = createTestDatabases({ databaseUrl: process.env.DATABASE_URL });
const ORG = "org_test";

let db: TestDatabase;
let upstream: AcceptingAggregator;
let hub: HubApp;
let seq = 0;

interface Signer {
  privateKey: KeyObject;
  publicKey: Buffer;
  address: string;
}

function newSigner(): Signer {
  const { privateKey, publicKey } = generateKeyPairSync("ed25519");
  const raw = publicKey.export({ format: "der", type: "spki" }).subarray(-32);
  return { privateKey, publicKey: raw, address: encodeBase58(raw) };
}

function envelope(signer: Signer, message: Buffer, options: { prefix?: number } = {}): string {
  const signature = sign(null, message, signer.privateKey);
  return Buffer.concat([Buffer.from([options.prefix ?? 0]), signature, signer.publicKey]).toString("base64");
}

async function solanaQuote(sender: Signer) {
  seq += 1;
  const message = randomBytes(220);
  const onchainOrderId = `0x${randomBytes(32).toString("hex")}` as const;
  // Only sender and transactionMessage take part in the check; the other terms are well-formed filler.
  const quote = await seedSolanaQuote(db.sql, {
    quoteId: `q-sol-env-${seq}-${randomBytes(4).toString("hex")}`,
    orgId: ORG,
    solana: {
      chainDomain: "solana:envelopetest",
      transactionMessage: message.toString("base64"),
      digest: "checksum-not-signed",
      sender: sender.address,
      feePayer: newSigner().address,
      recentBlockhash: newSigner().address,
      vault: newSigner().address,
      escrowOrder: {
        user: sender.address,
        mint: newSigner().address,
        amount: "1000000",
        expires: 1_800_000_600,
        nonce: "7",
        outputHash: `0x${randomBytes(32).toString("hex")}`,
        orderId: onchainOrderId,
      },
      fillDeadline: 1_800_000_300,
      output: {
        oracle: `0x${randomBytes(32).toString("hex")}`,
        settler: `0x${randomBytes(32).toString("hex")}`,
        chainId: "31337",
        token: `0x${randomBytes(32).toString("hex")}`,
        amount: "990000",
        recipient: `0x${randomBytes(32).toString("hex")}`,
        callbackData: "0x",
        context: "0x",
      },
    },
  });
  return { quote, message, onchainOrderId };
}

function submit(quote: { quoteRequestId: string; quoteId: string }, signature: string) {
  return call(hub, "POST", "/v1/order/openfor", { headers: SUBJECT, json: { ...quote, signature } });
}

before(async () => {
  db = await databases.open(process.env.DATABASE_URL ? "postgres" : "pglite");
  upstream = await startAcceptingAggregator((body) => {
    const payload = (body.quoteResponse as { order: { payload: { escrowOrder: { orderId: string } } } }).order
      .payload;
    return payload.escrowOrder.orderId;
  });
  hub = createTestHubApp({
    sql: db.sql,
    providers: [{ id: "devnet", dialect: "oif-aggregator", baseUrl: upstream.url, timeoutMs: 10_000 }],
  });
});
after(async () => {
  await hub.close();
  await upstream.close();
  await db.dispose();
  await databases.dispose();
});

describe("POST /order/openfor on the Solana lane (the 97-byte Ed25519 envelope)", () => {
  let forwardedBefore = 0;
  afterEach(() => {
    forwardedBefore = upstream.submissions.length;
  });

  async function assertRefusedUntouched(
    quote: { quoteId: string; quoteRequestId: string },
    signature: string,
  ): Promise<void> {
    assertRefusal(await submit(quote, signature), "EIN0001", "signature");
    assert.equal(await countSubmissions(db.sql, quote.quoteId), 0, "nothing reserved");
    assert.equal(upstream.submissions.length, forwardedBefore, "nothing forwarded");
  }

  test("an envelope of the wrong length is EIN0001 signature, nothing reserved or forwarded", async () => {
    const user = newSigner();
    const { quote, message } = await solanaQuote(user);
    const full = Buffer.from(envelope(user, message), "base64");
    await assertRefusedUntouched(quote, full.subarray(0, 96).toString("base64"));
    await assertRefusedUntouched(quote, Buffer.concat([full, Buffer.from([0])]).toString("base64"));
  });

  test("an envelope whose first byte is not 0x00 is EIN0001 signature, nothing reserved or forwarded", async () => {
    const user = newSigner();
    const { quote, message } = await solanaQuote(user);
    await assertRefusedUntouched(quote, envelope(user, message, { prefix: 1 }));
  });

  test("an envelope whose public key is not the quote's sender is EIN0001 signature, even with a valid signature by that key", async () => {
    const user = newSigner();
    const { quote, message } = await solanaQuote(user);
    await assertRefusedUntouched(quote, envelope(newSigner(), message));
  });

  test("a sender's signature over another message is EIN0001 signature, nothing reserved or forwarded", async () => {
    const user = newSigner();
    const { quote, message } = await solanaQuote(user);
    const other = Buffer.from(message);
    other[other.length - 1] = (other[other.length - 1] as number) ^ 1;
    await assertRefusedUntouched(quote, envelope(user, other));
  });

  test("the sender's envelope over transactionMessage is forwarded unchanged and acked; a re-post answers the same ack with no second forward", async () => {
    const user = newSigner();
    const { quote, message, onchainOrderId } = await solanaQuote(user);
    const signature = envelope(user, message);
    const first = envelopeOf(await submit(quote, signature));
    assert.equal(first.success, true, JSON.stringify(first));
    assert.equal(upstream.submissions.length, forwardedBefore + 1);
    const forwarded = upstream.submissions.at(-1);
    assert.ok(forwarded);
    assert.equal(forwarded.signature, signature, "the envelope is forwarded byte for byte");
    assert.equal(
      (forwarded.quoteResponse as { order: { payload: { sender: string } } }).order.payload.sender,
      user.address,
    );
    const again = envelopeOf(await submit(quote, signature));
    assert.deepEqual(again.data, first.data);
    assert.equal(upstream.submissions.length, forwardedBefore + 1, "the re-post was not forwarded");
    const row = await readSubmissionOnchainId(db.sql, quote.quoteId);
    assert.deepEqual(row, { onchain_order_id: onchainOrderId, state: "acked" });
  });
});
