import assert from "node:assert/strict";
import { connect } from "node:net";
import { after, before, describe, it } from "node:test";
import { createAdjustableClock } from "@hub/clock";
import { pollUntil } from "@hub/test-support";
import {
  type Address,
  address,
  appendTransactionMessageInstructions,
  assertIsFullySignedTransaction,
  compileTransaction,
  createKeyPairSignerFromBytes,
  createSolanaRpc,
  devnet as devnetCluster,
  createTransactionMessage,
  getBase58Decoder,
  getBase58Encoder,
  getBase64EncodedWireTransaction,
  getSignatureFromTransaction,
  type Blockhash,
  type KeyPairSigner,
  lamports,
  partiallySignTransaction,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
  type Signature,
  signBytes,
} from "@solana/kit";
import { getTransferSolInstruction } from "@solana-program/system";
import { findAssociatedTokenPda, TOKEN_PROGRAM_ADDRESS } from "@solana-program/token";
import { pino } from "pino";
import { compileSolanaDeposit, type SolanaEscrowOrder } from "../src/solana/solana-escrow.js";
import { solanaKeypairFromSecretKey } from "../src/solana/solana-keypair.js";
import { type SolanaDevnet, startSolanaDevnet } from "../src/solana/start-solana-devnet.js";

const logger = pino({ level: "silent" });
const outputHash = `0x${"ab".repeat(32)}` as const;

async function signerOf(secretKey: string): Promise<KeyPairSigner> {
  return createKeyPairSignerFromBytes(getBase58Encoder().encode(secretKey));
}

async function rpcCall(url: string, method: string, params: unknown[] = []) {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 7, method, params }),
  });
  assert.equal(response.status, 200);
  return (await response.json()) as {
    jsonrpc: string;
    id: number;
    result?: unknown;
    error?: { code: number; message: string; data?: unknown };
  };
}

describe("the Solana stand-in chain", () => {
  const clock = createAdjustableClock();
  let devnet: SolanaDevnet;
  let rpc: ReturnType<typeof createSolanaRpc<ReturnType<typeof devnetCluster>>>;
  let user: KeyPairSigner;
  let otherUser: KeyPairSigner;
  let solver: KeyPairSigner;
  let mint: Address;

  before(async () => {
    devnet = await startSolanaDevnet({ rpcPort: 0, clock, evmChains: [], logger });
    rpc = createSolanaRpc(devnetCluster(devnet.manifest.rpcUrl));
    user = await signerOf(devnet.manifest.users[0]!.secretKey);
    otherUser = await signerOf(devnet.manifest.users[1]!.secretKey);
    solver = await signerOf(devnet.manifest.solvers[0]!.secretKey);
    mint = address(devnet.manifest.tokens[0]!.mint);
  });
  after(() => devnet.stop());

  async function tokenAccount(owner: Address): Promise<Address> {
    return (await findAssociatedTokenPda({ owner, mint, tokenProgram: TOKEN_PROGRAM_ADDRESS }))[0];
  }

  async function tokenBalance(owner: Address): Promise<bigint> {
    return BigInt((await rpc.getTokenAccountBalance(await tokenAccount(owner)).send()).value.amount);
  }

  /** A SOL transfer from the user, who pays the fee. */
  function transferMessage(
    lifetime: { blockhash: Blockhash; lastValidBlockHeight: bigint },
    destination: Address,
    amount: bigint,
    version: "legacy" | 0 = 0,
  ) {
    return pipe(
      createTransactionMessage({ version }),
      (m) => setTransactionMessageFeePayerSigner(user, m),
      (m) => setTransactionMessageLifetimeUsingBlockhash(lifetime, m),
      (m) =>
        appendTransactionMessageInstructions(
          [getTransferSolInstruction({ source: user, destination, amount })],
          m,
        ),
    );
  }

  /** A deposit as the nonevm lane makes it: the solver pays the fee, the user signs the transfer. */
  async function deposit(
    order: SolanaEscrowOrder,
    orderId: string,
    options: { skipPreflight?: boolean } = {},
  ): Promise<Signature> {
    const { value: lifetime } = await rpc.getLatestBlockhash().send();
    const unsigned = compileSolanaDeposit({
      feePayer: solver.address,
      lifetime,
      user: order.user,
      source: order.user === user.address ? userTokenAccount : otherUserTokenAccount,
      mint,
      decimals: 6,
      vault,
      amount: order.amount,
      orderId,
    });
    const userSigned = await partiallySignTransaction(
      [order.user === user.address ? user.keyPair : otherUser.keyPair],
      unsigned,
    );
    const signed = await partiallySignTransaction([solver.keyPair], userSigned);
    assertIsFullySignedTransaction(signed);
    return rpc
      .sendTransaction(getBase64EncodedWireTransaction(signed), { encoding: "base64", ...options })
      .send();
  }

  let userTokenAccount: Address;
  let otherUserTokenAccount: Address;
  let vault: Address;
  before(async () => {
    userTokenAccount = await tokenAccount(user.address);
    otherUserTokenAccount = await tokenAccount(otherUser.address);
    vault = address(devnet.manifest.escrow.vaults[0]!.vault);
  });

  it("names its chain solana:<first 32 characters of its genesis hash>, the same on every start", async () => {
    const genesisHash = await rpc.getGenesisHash().send();
    assert.equal(devnet.manifest.chainDomain, `solana:${genesisHash.slice(0, 32)}`);
    const again = await startSolanaDevnet({ rpcPort: 0, clock, evmChains: [], logger });
    try {
      assert.equal(again.manifest.chainDomain, devnet.manifest.chainDomain);
      assert.deepEqual(again.manifest.users, devnet.manifest.users);
      for (const account of devnet.manifest.users)
        assert.equal(solanaKeypairFromSecretKey(account.secretKey).address, account.address);
      assert.equal(await createSolanaRpc(again.manifest.rpcUrl).getGenesisHash().send(), genesisHash);
    } finally {
      await again.stop();
    }
  });

  it("funds every user and solver with SOL and 6-decimal USDC, and the vault starts empty", async () => {
    for (const account of [...devnet.manifest.users, ...devnet.manifest.solvers]) {
      assert.ok((await rpc.getBalance(address(account.address)).send()).value > 0n);
      const { value } = await rpc.getTokenAccountBalance(await tokenAccount(address(account.address))).send();
      assert.equal(value.decimals, 6);
      assert.ok(BigInt(value.amount) > 0n);
    }
    assert.equal((await rpc.getTokenAccountBalance(vault).send()).value.uiAmountString, "0");
    const mintInfo = await rpc.getAccountInfo(mint, { encoding: "base64" }).send();
    assert.equal(mintInfo.value?.owner, TOKEN_PROGRAM_ADDRESS);
    assert.equal(mintInfo.value?.data[1], "base64");
    assert.equal(mintInfo.value?.space, 82n);
    const parsedVault = await rpc.getAccountInfo(vault, { encoding: "jsonParsed" }).send();
    assert.deepEqual(parsedVault.value?.data, {
      program: "spl-token",
      parsed: {
        type: "account",
        info: {
          isNative: false,
          mint,
          owner: devnet.manifest.escrow.settler.address,
          state: "initialized",
          tokenAmount: { amount: "0", decimals: 6, uiAmount: 0, uiAmountString: "0" },
        },
      },
      space: 165n,
    });
    const parsedMint = await rpc.getAccountInfo(mint, { encoding: "jsonParsed" }).send();
    const mintData = parsedMint.value?.data as {
      parsed: { type: string; info: { decimals: number; supply: string } };
    };
    assert.equal(mintData.parsed.type, "mint");
    assert.equal(mintData.parsed.info.decimals, 6);
    assert.ok(BigInt(mintData.parsed.info.supply) > 0n);
    const system = await rpc.getAccountInfo(user.address, { encoding: "jsonParsed" }).send();
    assert.deepEqual(system.value?.data, ["", "base64"], "an account no parser knows is shown in base64");
  });

  it("takes a wallet's signed SOL transfer in base64 and reports its status, transaction, balances and signatures", async () => {
    const before = (await rpc.getBalance(otherUser.address).send()).value;
    const { value: lifetime } = await rpc.getLatestBlockhash().send();
    assert.equal((await rpc.isBlockhashValid(lifetime.blockhash).send()).value, true);
    const message = transferMessage(lifetime, otherUser.address, 1_500_000n, "legacy");
    const signed = await signTransactionMessageWithSigners(message);
    const signature = await rpc
      .sendTransaction(getBase64EncodedWireTransaction(signed), { encoding: "base64" })
      .send();
    assert.equal(signature, getSignatureFromTransaction(signed));

    const statuses = await rpc.getSignatureStatuses([signature]).send();
    assert.equal(statuses.value[0]?.err, null);
    assert.equal(statuses.value[0]?.confirmationStatus, "finalized");
    assert.deepEqual(statuses.value[0]?.status, { Ok: null });
    const transaction = await rpc.getTransaction(signature, { encoding: "json" }).send();
    assert.ok(transaction);
    assert.equal(transaction.meta?.fee, 5000n);
    assert.equal(transaction.transaction.signatures[0], signature);
    assert.deepEqual(transaction.transaction.message.accountKeys.slice(0, 2), [
      user.address,
      otherUser.address,
    ]);
    assert.equal(transaction.meta!.postBalances[1]! - transaction.meta!.preBalances[1]!, 1_500_000n);
    assert.equal(transaction.meta!.preBalances[0]! - transaction.meta!.postBalances[0]!, 1_505_000n);
    assert.equal((await rpc.getBalance(otherUser.address).send()).value, before + 1_500_000n);
    const signatures = await rpc.getSignaturesForAddress(otherUser.address, { limit: 1 }).send();
    assert.deepEqual(
      signatures.map((entry) => [entry.signature, entry.slot, entry.err, entry.memo]),
      [[signature, transaction.slot, null, null]],
    );
    assert.ok((await rpc.getSlot().send()) >= transaction.slot);
  });

  it("reports the fee the chain charged, a priority fee included, with or without a compute-unit limit", async () => {
    const computeBudget = address("ComputeBudget111111111111111111111111111111");
    const price = new Uint8Array(9);
    price[0] = 3;
    new DataView(price.buffer).setBigUint64(1, 2_500_000n, true);
    const limit = new Uint8Array(5);
    limit[0] = 2;
    new DataView(limit.buffer).setUint32(1, 50_000, true);
    for (const budget of [[price, limit], [price]]) {
      const { value: lifetime } = await rpc.getLatestBlockhash().send();
      const message = pipe(
        createTransactionMessage({ version: 0 }),
        (m) => setTransactionMessageFeePayerSigner(solver, m),
        (m) => setTransactionMessageLifetimeUsingBlockhash(lifetime, m),
        (m) =>
          appendTransactionMessageInstructions(
            [
              ...budget.map((data) => ({ programAddress: computeBudget, data })),
              getTransferSolInstruction({ source: user, destination: otherUser.address, amount: 1_000n }),
            ],
            m,
          ),
      );
      const solverBefore = (await rpc.getBalance(solver.address).send()).value;
      const signed = await signTransactionMessageWithSigners(message);
      const signature = await rpc
        .sendTransaction(getBase64EncodedWireTransaction(signed), { encoding: "base64" })
        .send();
      const transaction = await rpc
        .getTransaction(signature, { encoding: "json", maxSupportedTransactionVersion: 0 })
        .send();
      const charged = solverBefore - (await rpc.getBalance(solver.address).send()).value;
      assert.equal(transaction?.meta?.fee, charged);
      assert.ok(charged > 10_000n, `a priority fee is charged (${charged})`);
    }
  });

  it("takes a deposit whose fee payer is the solver: transferChecked to the vault with the order id in a memo", async () => {
    const order: SolanaEscrowOrder = {
      user: user.address,
      mint,
      amount: 2_500_000n,
      expires: Math.floor(clock.now() / 1000) + 600,
      nonce: 1n,
      outputHash,
    };
    const orderId = devnet.escrow.register(order);
    const userBefore = await tokenBalance(user.address);
    const solverSolBefore = (await rpc.getBalance(solver.address).send()).value;
    const userSolBefore = (await rpc.getBalance(user.address).send()).value;
    assert.equal(await devnet.escrow.state(orderId), "awaiting-deposit");

    const signature = await deposit(order, orderId);

    assert.equal((await rpc.getTokenAccountBalance(vault).send()).value.amount, "2500000");
    assert.equal(await tokenBalance(user.address), userBefore - 2_500_000n);
    assert.equal((await rpc.getBalance(solver.address).send()).value, solverSolBefore - 10_000n);
    assert.equal((await rpc.getBalance(user.address).send()).value, userSolBefore);
    const [latest] = await rpc.getSignaturesForAddress(vault, { limit: 1 }).send();
    assert.equal(latest?.signature, signature);
    assert.equal(latest?.memo, `[66] ${orderId}`);
    const transaction = await rpc
      .getTransaction(signature, { encoding: "json", maxSupportedTransactionVersion: 0 })
      .send();
    assert.equal(transaction?.version, 0);
    assert.equal(transaction?.transaction.message.accountKeys[0], solver.address);
    const vaultIndex = transaction!.transaction.message.accountKeys.indexOf(vault);
    const post = transaction!.meta!.postTokenBalances!.find((entry) => entry.accountIndex === vaultIndex);
    assert.equal(post?.mint, mint);
    assert.equal(post?.owner, devnet.manifest.escrow.settler.address);
    assert.equal(post?.uiTokenAmount.uiAmountString, "2.5");
    assert.ok(transaction!.meta!.logMessages!.some((line) => line.includes(orderId)));
    assert.equal(await devnet.escrow.state(orderId), "deposited");
    assert.equal((await devnet.escrow.deposit(orderId))?.signature, signature);
  });

  it("keeps two orders whose terms differ only in their nonce apart, each with its own deposit, and refuses an id registered twice", async () => {
    const first: SolanaEscrowOrder = {
      user: user.address,
      mint,
      amount: 400_000n,
      expires: Math.floor(clock.now() / 1000) + 600,
      nonce: 11n,
      outputHash,
    };
    const second = { ...first, nonce: 12n };
    const firstId = devnet.escrow.register(first);
    const secondId = devnet.escrow.register(second);
    assert.notEqual(firstId, secondId);
    assert.throws(() => devnet.escrow.register({ ...first }), { reason: "already-registered" });
    await deposit(first, firstId);
    assert.equal(await devnet.escrow.state(firstId), "deposited");
    assert.equal(await devnet.escrow.state(secondId), "awaiting-deposit");
    await deposit(second, secondId);
    assert.equal(await devnet.escrow.state(secondId), "deposited");
    assert.notEqual(
      (await devnet.escrow.deposit(firstId))?.signature,
      (await devnet.escrow.deposit(secondId))?.signature,
    );
  });

  it("releases a deposit to the solver once, and never refunds it after", async () => {
    const order: SolanaEscrowOrder = {
      user: user.address,
      mint,
      amount: 700_000n,
      expires: Math.floor(clock.now() / 1000) + 600,
      nonce: 2n,
      outputHash,
    };
    const orderId = devnet.escrow.register(order);
    await assert.rejects(devnet.escrow.release(orderId, solver.address), { reason: "no-deposit" });
    await deposit(order, orderId);
    const solverBefore = await tokenBalance(solver.address);
    const signature = await devnet.escrow.release(orderId, solver.address);
    assert.equal(await tokenBalance(solver.address), solverBefore + 700_000n);
    assert.equal(await devnet.escrow.state(orderId), "released");
    assert.equal((await rpc.getSignatureStatuses([signature as Signature]).send()).value[0]?.err, null);
    await assert.rejects(devnet.escrow.release(orderId, solver.address), { reason: "already-settled" });
    devnet.chain.increaseTime(3600);
    await assert.rejects(devnet.escrow.refund(orderId), { reason: "already-settled" });
  });

  it("refunds a deposit to the user by itself once the order expires on the chain's clock, and not before", async () => {
    const order: SolanaEscrowOrder = {
      user: otherUser.address,
      mint,
      amount: 300_000n,
      expires: devnet.chain.unixTimestamp() + 120,
      nonce: 3n,
      outputHash,
    };
    const orderId = devnet.escrow.register(order);
    await deposit(order, orderId);
    const userAfterDeposit = await tokenBalance(otherUser.address);
    await assert.rejects(devnet.escrow.refund(orderId), { reason: "not-expired" });
    assert.ok(!(await devnet.escrow.refundExpired()).includes(orderId));
    devnet.chain.increaseTime(121);
    await pollUntil("the settler refunds the expired deposit", async () =>
      (await devnet.escrow.state(orderId)) === "refunded" ? true : undefined,
    );
    assert.equal(await tokenBalance(otherUser.address), userAfterDeposit + 300_000n);
    const [refund] = await rpc.getSignaturesForAddress(vault, { limit: 1 }).send();
    assert.equal(refund?.memo, `[73] refund:${orderId}`);
    await assert.rejects(devnet.escrow.refund(orderId), { reason: "already-settled" });
    await assert.rejects(devnet.escrow.release(orderId, solver.address), { reason: "already-settled" });
  });

  it("lands a transaction that fails in a program when sent without preflight: its error, its fee, no transfer", async () => {
    const order: SolanaEscrowOrder = {
      user: otherUser.address,
      mint,
      amount: (await tokenBalance(otherUser.address)) + 1n,
      expires: devnet.chain.unixTimestamp() + 600,
      nonce: 4n,
      outputHash,
    };
    const orderId = devnet.escrow.register(order);
    const solverSolBefore = (await rpc.getBalance(solver.address).send()).value;
    const preflight = await deposit(order, orderId).then(
      () => undefined,
      (error: unknown) => error,
    );
    assert.ok(preflight, "preflight refuses a transfer above the balance");
    const signature = await deposit(order, orderId, { skipPreflight: true });
    const [status] = (await rpc.getSignatureStatuses([signature]).send()).value;
    assert.deepEqual(status?.err, { InstructionError: [0n, { Custom: 1n }] });
    const transaction = await rpc
      .getTransaction(signature, { encoding: "json", maxSupportedTransactionVersion: 0 })
      .send();
    assert.equal(transaction?.meta?.fee, 10_000n);
    assert.equal((await rpc.getBalance(solver.address).send()).value, solverSolBefore - 10_000n);
    assert.equal(await devnet.escrow.state(orderId), "awaiting-deposit");
    const [latest] = await rpc.getSignaturesForAddress(vault, { limit: 1 }).send();
    assert.deepEqual(
      [latest?.signature, latest?.err],
      [signature, { InstructionError: [0n, { Custom: 1n }] }],
    );
  });

  it("refuses a transaction whose signature is forged with -32003 and lands nothing", async () => {
    const { value: lifetime } = await rpc.getLatestBlockhash().send();
    const message = transferMessage(lifetime, solver.address, 1n);
    // Signed by another key in the user's place.
    const compiled = compileTransaction(message);
    const forgedSignature = await signBytes(otherUser.keyPair.privateKey, compiled.messageBytes);
    const wire = getBase64EncodedWireTransaction({
      ...compiled,
      signatures: { [user.address]: forgedSignature },
    });
    const answer = await rpcCall(devnet.manifest.rpcUrl, "sendTransaction", [wire, { encoding: "base64" }]);
    assert.equal(answer.error?.code, -32003);
    assert.equal(answer.error?.message, "Transaction signature verification failure");
    const skipped = await rpcCall(devnet.manifest.rpcUrl, "sendTransaction", [
      wire,
      { encoding: "base64", skipPreflight: true },
    ]);
    const status = await rpcCall(devnet.manifest.rpcUrl, "getSignatureStatuses", [[skipped.result]]);
    assert.deepEqual((status.result as { value: unknown[] }).value, [null]);
  });

  it("answers JSON-RPC errors for an unknown method, bad params, bad JSON, an expired blockhash and a v0 transaction asked without its version", async () => {
    const url = devnet.manifest.rpcUrl;
    assert.deepEqual((await rpcCall(url, "getBlock", [1])).error, {
      code: -32601,
      message: "Method not found",
    });
    assert.equal((await rpcCall(url, "getBalance", ["not-an-address"])).error?.code, -32602);
    assert.equal((await rpcCall(url, "getBalance", [])).error?.code, -32602);
    assert.equal((await rpcCall(url, "getSlot", [{ minContextSlot: 10_000_000 }])).error?.code, -32016);
    const garbled = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{",
    });
    assert.deepEqual(await garbled.json(), {
      jsonrpc: "2.0",
      error: { code: -32700, message: "Parse error" },
      id: null,
    });

    const { value: stale } = await rpc.getLatestBlockhash().send();
    clock.advance(151 * 400 + 400);
    assert.equal((await rpc.isBlockhashValid(stale.blockhash).send()).value, false);
    const message = transferMessage(stale, solver.address, 2n);
    const wire = getBase64EncodedWireTransaction(await signTransactionMessageWithSigners(message));
    const refused = await rpcCall(url, "sendTransaction", [wire, { encoding: "base64" }]);
    assert.equal(refused.error?.code, -32002);
    assert.deepEqual(refused.error?.data, {
      err: "BlockhashNotFound",
      logs: [],
      accounts: null,
      unitsConsumed: 0,
      returnData: null,
      innerInstructions: null,
    });

    const [v0] = await rpc.getSignaturesForAddress(vault, { limit: 1 }).send();
    assert.equal((await rpcCall(url, "getTransaction", [v0!.signature])).error?.code, -32015);
  });

  it("serves batches, base58 account data up to 128 bytes, and a transaction's wire bytes in base64", async () => {
    const url = devnet.manifest.rpcUrl;
    const response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify([
        { jsonrpc: "2.0", id: 1, method: "getSlot" },
        { jsonrpc: "2.0", id: "two", method: "getAccountInfo", params: [mint] },
        { jsonrpc: "2.0", id: 3, method: "getAccountInfo", params: [vault] },
        { jsonrpc: "2.0", id: 4, method: "nope" },
      ]),
    });
    const batch = (await response.json()) as { id: unknown; result?: unknown; error?: { code: number } }[];
    assert.deepEqual(
      batch.map((answer) => answer.id),
      [1, "two", 3, 4],
    );
    assert.equal(typeof batch[0]!.result, "number");
    const mintInfo = batch[1]!.result as { value: { data: [string, string]; space: number } };
    assert.equal(mintInfo.value.data[1], "base58");
    assert.equal(getBase58Encoder().encode(mintInfo.value.data[0]).length, mintInfo.value.space);
    assert.equal(batch[2]!.error?.code, -32600, "a 165-byte token account is too long for base58");
    assert.equal(batch[3]!.error?.code, -32601);
    assert.equal(await (await fetch(`${url}/health`)).text(), "ok");

    const [latest] = await rpc.getSignaturesForAddress(vault, { limit: 1 }).send();
    const raw = await rpc
      .getTransaction(latest!.signature, { encoding: "base64", maxSupportedTransactionVersion: 0 })
      .send();
    const wire = Buffer.from(raw!.transaction[0], "base64");
    assert.equal(getBase58Decoder().decode(wire.subarray(1, 65)), latest!.signature);
  });

  it("keeps serving after a client drops its connection halfway through a request body", async () => {
    const { port } = new URL(devnet.manifest.rpcUrl);
    await new Promise<void>((resolve, reject) => {
      const socket = connect(Number(port), "127.0.0.1", () => {
        socket.write(
          'POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"jsonrpc":',
          () => setTimeout(() => socket.destroy(), 50),
        );
      });
      socket.on("close", () => resolve());
      socket.on("error", reject);
    });
    // The server read the dropped body's error; it neither crashed nor left a rejection unhandled.
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal(typeof (await rpcCall(devnet.manifest.rpcUrl, "getSlot")).result, "number");
  });

  it("advances slots with time and with transactions, and serves airdrops and rent figures", async () => {
    const slot = await rpc.getSlot().send();
    clock.advance(2000);
    const later = await rpc.getSlot().send();
    assert.ok(later >= slot + 5n, `${later} after ${slot}`);
    const recipient = address(devnet.manifest.users[5]!.address);
    const before = (await rpc.getBalance(recipient).send()).value;
    const signature = await rpc.requestAirdrop(recipient, lamports(2_000_000_000n)).send();
    assert.equal((await rpc.getBalance(recipient).send()).value, before + 2_000_000_000n);
    const status = (await rpc.getSignatureStatuses([signature]).send()).value[0];
    assert.ok(status && status.slot > later);
    assert.equal(await rpc.getBlockHeight().send(), await rpc.getSlot().send());
    assert.equal(await rpc.getMinimumBalanceForRentExemption(165n).send(), 2_039_280n);
  });
});
