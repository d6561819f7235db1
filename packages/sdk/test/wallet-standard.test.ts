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
  getBase58Decoder,
  getBase58Encoder,
  getTransactionDecoder,
  getTransactionEncoder,
  type KeyPairSigner,
  partiallySignTransaction,
  pipe,
  setTransactionMessageFeePayer,
  setTransactionMessageLifetimeUsingBlockhash,
  signBytes,
} from "@solana/kit";
import { createHubClient, WalletRejectedError, type Winner } from "../src/index.js";
import {
  type StandardWallet,
  type StandardWalletAccount,
  walletStandardSolanaWallet,
} from "../src/wallet-standard.js";
import { ok, rejection, scriptedServer } from "./scripted-server.js";

// A Wallet Standard wallet as Phantom or Solflare registers it, as a plain object with the standard's
// `features` shape over a devnet key (no extension): its signTransaction decodes the wire transaction,
// signs it with the key (@solana/kit) and encodes it back, as a wallet does.

const MEMO_PROGRAM = address("MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr");
const SPKI_ED25519_PREFIX = Buffer.from("302a300506032b6570032100", "hex");

const signerOf = (label: string): Promise<KeyPairSigner> =>
  createKeyPairSignerFromPrivateKeyBytes(createHash("sha256").update(label).digest(), true);

/** The solver's v0 message: the solver pays the fees (first signer), the user is the second signer. */
async function solanaWinner(user: string) {
  const solver = await signerOf("solver");
  const message = pipe(
    createTransactionMessage({ version: 0 }),
    (m) => setTransactionMessageFeePayer(solver.address, m),
    (m) =>
      setTransactionMessageLifetimeUsingBlockhash(
        { blockhash: blockhash("4uQeVj5tqViQh7yWWGStvkEG1Zmhx6uasJtWCJziofM"), lastValidBlockHeight: 150n },
        m,
      ),
    (m) =>
      appendTransactionMessageInstruction(
        {
          programAddress: MEMO_PROGRAM,
          accounts: [{ address: address(user), role: AccountRole.READONLY_SIGNER }],
          data: new TextEncoder().encode(`0x${"ab".repeat(32)}`),
        },
        m,
      ),
  );
  const messageBytes = new Uint8Array(compileTransaction(message).messageBytes);
  const signPayload = {
    transactionMessage: Buffer.from(messageBytes).toString("base64"),
    digest: getBase58Decoder().decode(createHash("sha256").update(messageBytes).digest()),
    sender: user,
    feePayer: solver.address,
  };
  const winner = {
    quoteRequestId: "qr_r1_sol",
    quoteId: "q_r1_solana",
    lane: "oif-escrow-nonevm",
    sourceAccount: user,
    signPayload,
    disclosure: { signablePayload: { kind: "oif-escrow-nonevm", signPayload }, signableHash: "0x" },
  } as unknown as Winner;
  return { winner, messageBytes };
}

const ack = (w: Winner) =>
  ok({
    orderId: `0x${"ab".repeat(32)}`,
    hubOrderId: "h",
    quoteId: w.quoteId,
    state: "created",
    submittedAt: "t",
  });

class WalletError extends Error {
  readonly code = 4001;
}

/** A Wallet Standard wallet over the key, with the features named; it records what it was asked. */
function standardWallet(
  key: KeyPairSigner,
  features: ("transaction" | "message")[],
  behaviour: { reject?: boolean; rewrite?: boolean; connected?: boolean } = {},
) {
  const account: StandardWalletAccount = {
    address: key.address,
    publicKey: new Uint8Array(getBase58Encoder().encode(key.address)),
    chains: ["solana:devnet"],
    features: ["solana:signTransaction", "solana:signMessage"],
  };
  const asked: string[] = [];
  const accounts: StandardWalletAccount[] = behaviour.connected === false ? [] : [account];
  const wallet: StandardWallet = {
    version: "1.0.0",
    name: "Devnet Wallet",
    chains: ["solana:devnet"],
    get accounts() {
      return accounts;
    },
    features: {
      "standard:connect": {
        version: "1.0.0",
        async connect() {
          asked.push("connect");
          accounts.splice(0, accounts.length, account);
          return { accounts };
        },
      },
      ...(features.includes("transaction")
        ? {
            "solana:signTransaction": {
              version: "1.0.0",
              supportedTransactionVersions: ["legacy", 0] as const,
              async signTransaction(
                ...inputs: { account: StandardWalletAccount; transaction: Uint8Array; chain?: string }[]
              ) {
                asked.push(`signTransaction ${inputs[0]!.chain ?? ""}`.trim());
                if (behaviour.reject) throw new WalletError("User rejected the request.");
                return Promise.all(
                  inputs.map(async ({ transaction }) => {
                    const decoded = getTransactionDecoder().decode(transaction);
                    const signed = await partiallySignTransaction([key.keyPair], decoded);
                    const bytes = new Uint8Array(getTransactionEncoder().encode(signed));
                    // A wallet that appends to the message (as some add their own instructions).
                    return { signedTransaction: behaviour.rewrite ? new Uint8Array([...bytes, 0]) : bytes };
                  }),
                );
              },
            },
          }
        : {}),
      ...(features.includes("message")
        ? {
            "solana:signMessage": {
              version: "1.0.0",
              async signMessage(...inputs: { account: StandardWalletAccount; message: Uint8Array }[]) {
                asked.push("signMessage");
                if (behaviour.reject) throw new WalletError("User rejected the request.");
                return Promise.all(
                  inputs.map(async ({ message }) => ({
                    signedMessage: message,
                    signature: new Uint8Array(await signBytes(key.keyPair.privateKey, message)),
                    signatureType: "ed25519" as const,
                  })),
                );
              },
            },
          }
        : {}),
    },
  };
  return { wallet, asked };
}

/** Verifies the posted 97-byte envelope with node:crypto: 0x00, the signature over the message, the user's key. */
function assertEnvelope(signature: string, messageBytes: Uint8Array, user: string) {
  const envelope = Buffer.from(signature, "base64");
  assert.equal(envelope.length, 97);
  assert.equal(envelope[0], 0);
  const publicKey = envelope.subarray(65);
  assert.deepEqual(new Uint8Array(publicKey), new Uint8Array(getBase58Encoder().encode(user)));
  const key = createPublicKey({
    key: Buffer.concat([SPKI_ED25519_PREFIX, publicKey]),
    format: "der",
    type: "spki",
  });
  assert.ok(verify(null, messageBytes, key, envelope.subarray(1, 65)), "the Ed25519 signature verifies");
}

for (const [features, expected] of [
  [["transaction", "message"], "signTransaction solana:devnet"],
  [["message"], "signMessage"],
] as const) {
  test(`a Wallet Standard wallet with ${features.join(" and ")}: signed through ${expected.split(" ")[0]}, the envelope verifies`, async () => {
    const user = await signerOf("wallet-standard user");
    const { winner, messageBytes } = await solanaWinner(user.address);
    const { wallet, asked } = standardWallet(user, [...features], { connected: false });
    const server = await scriptedServer([() => ack(winner)]);
    try {
      const client = createHubClient({ baseUrl: server.baseUrl, projectId: "proj_x", subject: "s" });
      const solana = await walletStandardSolanaWallet(wallet, { chain: "solana:devnet" });
      assert.equal(solana.address, user.address);
      await client.submit(winner, solana);
      assert.deepEqual(asked, ["connect", expected]);
      assertEnvelope(JSON.parse(server.received[0]!.body).signature, messageBytes, user.address);
    } finally {
      await server.close();
    }
  });
}

test("a rejection in the Wallet Standard wallet is a WalletRejectedError; a wallet that rewrites the transaction is refused; nothing posted", async () => {
  const user = await signerOf("wallet-standard user");
  const { winner } = await solanaWinner(user.address);
  const server = await scriptedServer([]);
  try {
    const client = createHubClient({ baseUrl: server.baseUrl, projectId: "proj_x", subject: "s" });
    for (const features of [["transaction"], ["message"]] as const) {
      const { wallet } = standardWallet(user, [...features], { reject: true });
      const error = await rejection(client.submit(winner, await walletStandardSolanaWallet(wallet)));
      assert.ok(error instanceof WalletRejectedError, features[0]);
      assert.equal(error.kind, "user-rejected");
    }
    const { wallet } = standardWallet(user, ["transaction"], { rewrite: true });
    const error = await rejection(client.submit(winner, await walletStandardSolanaWallet(wallet)));
    assert.equal(error.code, "ESDK_WALLET");
    assert.match(error.message, /changed the transaction/);
    // A wallet whose account is not the order's signer signs nothing.
    const other = await signerOf("someone else");
    const { wallet: stranger, asked } = standardWallet(other, ["transaction"]);
    const mismatch = await rejection(client.submit(winner, await walletStandardSolanaWallet(stranger)));
    assert.equal(mismatch.code, "ESDK_SENDER_MISMATCH");
    assert.deepEqual(asked, []);
    assert.deepEqual(server.calls(), []);
  } finally {
    await server.close();
  }
});
