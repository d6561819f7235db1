import assert from "node:assert/strict";
import { createHash, createPublicKey, verify } from "node:crypto";
import { test } from "node:test";
import {
  AccountRole,
  address,
  appendTransactionMessageInstruction,
  blockhash,
  compileTransaction,
  createKeyPairSignerFromPrivateKeyBytes,
  createTransactionMessage,
  getAddressEncoder,
  getBase58Decoder,
  type KeyPairSigner,
  partiallySignTransaction,
  pipe,
  setTransactionMessageFeePayer,
  setTransactionMessageLifetimeUsingBlockhash,
} from "@solana/kit";
import { createHubClient, type SolanaWallet, type SubmitStep, type Winner } from "../src/index.js";
import { solanaWallet, solanaWalletFromSecretKey } from "../src/solana.js";
import { submitThroughLostOpenForAnswer } from "./lost-openfor-answer.js";
import { recordingWallet } from "./recording-wallet.js";
import { fail, ok, rejection, scriptedServer } from "./scripted-server.js";

const KEY = `svc_sk_${"b".repeat(43)}`;
const MEMO_PROGRAM = address("MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr");
const SPKI_ED25519_PREFIX = Buffer.from("302a300506032b6570032100", "hex");

const signerOf = (label: string): Promise<KeyPairSigner> =>
  createKeyPairSignerFromPrivateKeyBytes(createHash("sha256").update(label).digest(), true);

const base58Sha256 = (bytes: Uint8Array) =>
  getBase58Decoder().decode(createHash("sha256").update(bytes).digest());

/**
 * A v0 message as the solver compiles it: fee payer first, then the user as the second signer, and a Memo
 * carrying the order id (the escrow's transferChecked is the devnet's to test; the SDK signs any bytes).
 */
function compiledMessage(feePayer: string, sender: string, memo: string) {
  const message = pipe(
    createTransactionMessage({ version: 0 }),
    (m) => setTransactionMessageFeePayer(address(feePayer), m),
    (m) =>
      setTransactionMessageLifetimeUsingBlockhash(
        { blockhash: blockhash("4uQeVj5tqViQh7yWWGStvkEG1Zmhx6uasJtWCJziofM"), lastValidBlockHeight: 150n },
        m,
      ),
    (m) =>
      appendTransactionMessageInstruction(
        {
          programAddress: MEMO_PROGRAM,
          accounts: [{ address: address(sender), role: AccountRole.READONLY_SIGNER }],
          data: new TextEncoder().encode(memo),
        },
        m,
      ),
  );
  return compileTransaction(message);
}

async function solanaWinner(user: string, overrides: Record<string, unknown> = {}) {
  const solver = await signerOf("solver");
  const transaction = compiledMessage(solver.address, user, `0x${"ab".repeat(32)}`);
  const messageBytes = new Uint8Array(transaction.messageBytes);
  const signPayload = {
    transactionMessage: Buffer.from(messageBytes).toString("base64"),
    digest: base58Sha256(messageBytes),
    sender: user,
    feePayer: solver.address,
    ...overrides,
  };
  const winner = {
    quoteRequestId: "qr_r1_sol",
    quoteId: "q_r1_solana",
    lane: "oif-escrow-nonevm",
    sourceAccount: user,
    signPayload,
    disclosure: { signablePayload: { kind: "oif-escrow-nonevm", signPayload }, signableHash: "0x" },
  } as unknown as Winner;
  return { winner, transaction, messageBytes };
}

const ack = (w: Winner, hubOrderId: string) =>
  ok({ orderId: `0x${"ab".repeat(32)}`, hubOrderId, quoteId: w.quoteId, state: "created", submittedAt: "t" });

/** A Solana wallet that counts what it was asked to sign. */
function counting(wallet: SolanaWallet) {
  const signed: Uint8Array[] = [];
  return {
    signed,
    wallet: {
      address: wallet.address,
      signEd25519: (message: Uint8Array) => {
        signed.push(message);
        return wallet.signEd25519(message);
      },
    } satisfies SolanaWallet,
  };
}

test("the Solana lane posts the 97-byte envelope: 0x00, the Ed25519 signature over the message bytes (node:crypto verifies it), the user's key; the body is exactly quoteRequestId, quoteId, signature", async () => {
  const user = await signerOf("user");
  const { winner, transaction, messageBytes } = await solanaWinner(user.address);
  const server = await scriptedServer([() => ack(winner, "h1")]);
  try {
    const client = createHubClient({ baseUrl: server.baseUrl, apiKey: KEY, subject: "s" });
    const steps: SubmitStep[] = [];
    const order = await client.submit(winner, await solanaWallet(user), { onStep: (s) => steps.push(s) });
    assert.deepEqual(
      steps.map((s) => s.step),
      ["signed", "acked"],
    );
    assert.deepEqual(order.kind === "openfor" && [order.lane, order.hubOrderId, order.onchainOrderId], [
      "oif-escrow-nonevm",
      "h1",
      `0x${"ab".repeat(32)}`,
    ]);
    assert.deepEqual(server.calls(), ["POST /order/openfor"]);
    const body = JSON.parse(server.received[0]!.body);
    assert.deepEqual(Object.keys(body), ["quoteRequestId", "quoteId", "signature"]);
    assert.deepEqual([body.quoteRequestId, body.quoteId], ["qr_r1_sol", "q_r1_solana"]);
    assert.match(body.signature, /^[A-Za-z0-9+/]+={0,2}$/, "standard base64");
    const envelope = Buffer.from(body.signature, "base64");
    assert.equal(envelope.length, 97);
    assert.equal(envelope[0], 0x00);
    const publicKey = envelope.subarray(65);
    assert.deepEqual(new Uint8Array(publicKey), new Uint8Array(getAddressEncoder().encode(user.address)));
    const key = createPublicKey({
      key: Buffer.concat([SPKI_ED25519_PREFIX, publicKey]),
      format: "der",
      type: "spki",
    });
    assert.equal(
      verify(null, messageBytes, key, envelope.subarray(1, 65)),
      true,
      "verifies over the message",
    );
    assert.equal(verify(null, Buffer.from("another message"), key, envelope.subarray(1, 65)), false);
    // The same signature the user's slot of the transaction needs: the solver adds its own and sends it.
    const signedByUser = await partiallySignTransaction([user.keyPair], transaction);
    assert.deepEqual(
      new Uint8Array(signedByUser.signatures[user.address]!),
      new Uint8Array(envelope.subarray(1, 65)),
    );
    assert.equal(steps[0]?.step === "signed" && steps[0].signature, body.signature);
  } finally {
    await server.close();
  }
});

test("a KeyPairSigner, its CryptoKeyPair and the 64-byte base58 secret key make the same wallet and the same signature", async () => {
  const user = await signerOf("user");
  const secretKey = getBase58Decoder().decode(
    Buffer.concat([
      createHash("sha256").update("user").digest(),
      Buffer.from(getAddressEncoder().encode(user.address)),
    ]),
  );
  const wallets = [
    await solanaWallet(user),
    await solanaWallet(user.keyPair),
    await solanaWalletFromSecretKey(secretKey),
  ];
  const message = new TextEncoder().encode("message bytes");
  const signatures = await Promise.all(wallets.map((w) => w.signEd25519(message)));
  assert.deepEqual(
    wallets.map((w) => w.address),
    [user.address, user.address, user.address],
  );
  assert.ok(signatures.every((s) => Buffer.from(s).equals(Buffer.from(signatures[0]!))));
  await assert.rejects(solanaWalletFromSecretKey(getBase58Decoder().decode(new Uint8Array(32).fill(7))), {
    message: /64 bytes/,
  });
});

test("a payload whose sender is not the wallet is refused before anything is signed or sent", async () => {
  const user = await signerOf("user");
  const other = await signerOf("someone else");
  const server = await scriptedServer([]);
  try {
    const client = createHubClient({ baseUrl: server.baseUrl, apiKey: KEY, subject: "s" });
    const { wallet, signed } = counting(await solanaWallet(user));
    // The message names the other account as its signer: the quote was made for someone else.
    const { winner } = await solanaWinner(other.address);
    const error = await rejection(client.submit(winner, wallet));
    assert.deepEqual([error.code, error.block, error.status], ["ESDK_SENDER_MISMATCH", "terminal", 0]);
    // sender names the wallet but the quote's sourceAccount does not.
    const { winner: sourced } = await solanaWinner(user.address);
    const mismatched = { ...sourced, sourceAccount: other.address } as Winner;
    assert.equal((await rejection(client.submit(mismatched, wallet))).code, "ESDK_SENDER_MISMATCH");
    assert.equal(signed.length, 0, "nothing signed");
    assert.equal(server.received.length, 0, "no network call");
  } finally {
    await server.close();
  }
});

test("a digest that is not the message's checksum is refused before anything is signed or sent", async () => {
  const user = await signerOf("user");
  const server = await scriptedServer([]);
  try {
    const client = createHubClient({ baseUrl: server.baseUrl, apiKey: KEY, subject: "s" });
    const { wallet, signed } = counting(await solanaWallet(user));
    const { winner: wrongDigest } = await solanaWinner(user.address, {
      digest: base58Sha256(new TextEncoder().encode("another message")),
    });
    assert.equal((await rejection(client.submit(wrongDigest, wallet))).code, "ESDK_DIGEST_MISMATCH");
    // The message swapped for another one while the digest still names the disclosed one.
    const { winner: disclosed } = await solanaWinner(user.address);
    const solver = await signerOf("solver");
    const swapped = compiledMessage(solver.address, user.address, `0x${"cd".repeat(32)}`);
    const tampered = {
      ...disclosed,
      signPayload: {
        ...(disclosed.signPayload as object),
        transactionMessage: Buffer.from(swapped.messageBytes).toString("base64"),
      },
    } as Winner;
    assert.equal((await rejection(client.submit(tampered, wallet))).code, "ESDK_DIGEST_MISMATCH");
    const { winner: notBase64 } = await solanaWinner(user.address, { transactionMessage: "not base64!" });
    assert.equal((await rejection(client.submit(notBase64, wallet))).code, "ESDK_NOT_COMPLETABLE");
    assert.equal(signed.length, 0, "nothing signed");
    assert.equal(server.received.length, 0, "no network call");
  } finally {
    await server.close();
  }
});

test("a lost Solana openFor answer: read the order by hubOrderId (once more on not-found), re-post the identical envelope; one signature", async () => {
  const user = await signerOf("user");
  const { winner } = await solanaWinner(user.address);
  const { wallet, signed } = counting(await solanaWallet(user));
  await submitThroughLostOpenForAnswer(winner, wallet, (id) => ack(winner, id));
  assert.equal(signed.length, 1, "never a second signature");
});

test("EIN0052 on the Solana lane stops at once: no re-post, no second signature", async () => {
  const user = await signerOf("user");
  const { winner } = await solanaWinner(user.address);
  const server = await scriptedServer([() => fail("EIN0052")]);
  try {
    const client = createHubClient({ baseUrl: server.baseUrl, apiKey: KEY, subject: "s" });
    const { wallet, signed } = counting(await solanaWallet(user));
    const error = await rejection(client.submit(winner, wallet));
    assert.deepEqual([error.code, error.block], ["EIN0052", "availability"]);
    assert.deepEqual(server.calls(), ["POST /order/openfor"]);
    assert.equal(signed.length, 1);
  } finally {
    await server.close();
  }
});

test("a wallet of the wrong family is refused before anything is signed or sent", async () => {
  const user = await signerOf("user");
  const server = await scriptedServer([]);
  try {
    const client = createHubClient({ baseUrl: server.baseUrl, apiKey: KEY, subject: "s" });
    const { winner } = await solanaWinner(user.address);
    const evm = recordingWallet();
    assert.equal((await rejection(client.submit(winner, evm.wallet))).code, "ESDK_WALLET_FAMILY");
    const { wallet, signed } = counting(await solanaWallet(user));
    const permit2 = {
      ...winner,
      lane: "oif-escrow-gasless",
      signPayload: { domain: {} },
    } as unknown as Winner;
    assert.equal((await rejection(client.submit(permit2, wallet))).code, "ESDK_WALLET_FAMILY");
    assert.deepEqual([evm.typedData.length, signed.length, server.received.length], [0, 0, 0]);
  } finally {
    await server.close();
  }
});
