import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { after, before, describe, test } from "node:test";
import {
  addressToBytes32,
  type DevnetChain,
  encodeSolanaInteropAddress,
  fillDescriptionHash,
  type MandateOutput,
  solanaKeyToBytes32,
  solanaOifChainId,
} from "@hub/chain";
import { createAdjustableClock } from "@hub/clock";
import { address, createNoopSigner, type Instruction } from "@solana/kit";
import {
  findAssociatedTokenPda,
  getTransferCheckedInstruction,
  TOKEN_PROGRAM_ADDRESS,
} from "@solana-program/token";
import { pino } from "pino";
import type { Hex } from "viem";
import { readSolanaFill, type SolanaFillTarget } from "../src/committee/solana-fills.js";
import { encodeInteropAddress } from "../src/aggregator/interop-address.js";
import { sendDevnetTransaction } from "../src/solana/send-devnet-transaction.js";
import { memoInstruction } from "../src/solana/solana-escrow.js";
import { devnetSolanaKeypair, solanaKeypairFromSecretKey } from "../src/solana/solana-keypair.js";
import { type SolanaDevnet, startSolanaDevnet } from "../src/solana/start-solana-devnet.js";
import {
  createSolanaFiller,
  rescaleAmount,
  solanaFillInstructions,
  solanaFillMemo,
  solanaOutputTarget,
} from "../src/solver/solana-output-fill.js";
import { SolverError } from "../src/solver/solver-error.js";

const solverEvm = "0x5555555555555555555555555555555555555555" as const;
const evmChainId = 31337;
const evmUsdc: `0x${string}` = "0x00000000000000000000000000000000000000Aa";

describe("fills of Solana outputs, as the solver sends them and the committee reads them", () => {
  const clock = createAdjustableClock();
  let devnet: SolanaDevnet;
  before(async () => {
    devnet = await startSolanaDevnet({
      rpcPort: 0,
      clock,
      // Only the chain id and the USDC address of an EVM chain name the Solana USDC's counterpart.
      evmChains: [
        {
          chainDomain: `eip155:${evmChainId}`,
          chainId: evmChainId,
          rpcUrl: "http://127.0.0.1:1",
          deployBlock: 0,
          contracts: { usdc: evmUsdc } as DevnetChain["contracts"],
        },
      ],
      logger: pino({ level: "silent" }),
    });
  });
  after(() => devnet.stop());

  const mint = () => devnet.manifest.tokens[0]!.mint;
  const solverKeypair = () => solanaKeypairFromSecretKey(devnet.manifest.solvers[0]!.secretKey);

  /** An order paying `amount` to a fresh recipient, due within a minute on the chain's clock. */
  async function target(amount: bigint): Promise<SolanaFillTarget> {
    const recipient = devnetSolanaKeypair(`solana-fills recipient ${randomBytes(8).toString("hex")}`).address;
    const settler = solanaKeyToBytes32(devnet.manifest.escrow.settler.address);
    const output: MandateOutput = {
      oracle: settler,
      settler,
      chainId: solanaOifChainId(devnet.manifest.genesisHash),
      token: solanaKeyToBytes32(mint()),
      amount,
      recipient: solanaKeyToBytes32(recipient),
      callbackData: "0x",
      context: "0x",
    };
    const [tokenAccount] = await findAssociatedTokenPda({
      owner: recipient,
      mint: address(mint()),
      tokenProgram: TOKEN_PROGRAM_ADDRESS,
    });
    return {
      orderId: `0x${randomBytes(32).toString("hex")}`,
      originChainId: 31337,
      fillDeadline: devnet.chain.unixTimestamp() + 60,
      output,
      recipient,
      mint: mint(),
      tokenAccount,
    };
  }

  async function fillInstructions(
    order: SolanaFillTarget,
    overrides: { amount?: bigint; memo?: string } = {},
  ) {
    return solanaFillInstructions({
      feePayer: solverKeypair().address,
      recipient: order.recipient,
      mint: order.mint,
      amount: overrides.amount ?? order.output.amount,
      decimals: 6,
      memo: overrides.memo ?? solanaFillMemo(order.orderId, solverEvm),
    });
  }

  function send(instructions: Instruction[]) {
    return sendDevnetTransaction(devnet.chain, solverKeypair(), instructions);
  }

  test("the solver's fill through the RPC creates the recipient's token account, pays the output and is the order's fill", async () => {
    const order = await target(1_234_567n);
    const filler = createSolanaFiller({
      rpcUrl: devnet.manifest.rpcUrl,
      account: devnet.manifest.solvers[0]!,
    });
    const solverBefore = await filler.balance(mint());
    const signature = await filler.fill({
      orderId: order.orderId,
      output: order.output,
      decimals: 6,
      solver: solverEvm,
    });
    const outcome = await filler.outcome(signature);
    assert.equal(outcome.state, "landed");
    assert.equal(await filler.balance(mint()), solverBefore - order.output.amount);
    assert.equal(devnet.chain.tokenAmount(address(order.tokenAccount))?.amount, "1234567");

    const record = devnet.chain.transaction(signature)!;
    assert.equal(record.transaction.accountKeys[0], solverKeypair().address);
    const fill = readSolanaFill(order, record);
    assert.ok(fill, "the fill is recognised");
    const solver = addressToBytes32(solverEvm);
    assert.deepEqual(fill, {
      orderId: order.orderId,
      originChainId: order.originChainId,
      solver,
      fillTimestamp: record.blockTime,
      signature,
      attestation: {
        remoteChainId: order.output.chainId,
        remoteOracle: order.output.oracle,
        application: order.output.settler,
        payloadHash: fillDescriptionHash({
          solver,
          orderId: order.orderId,
          timestamp: record.blockTime,
          output: order.output,
        }),
      },
    });
    assert.equal(outcome.state === "landed" && outcome.blockTime, record.blockTime);
  });

  test("a transfer of one unit less, a memo naming another order, or an extra instruction is no fill", async () => {
    const order = await target(500_000n);
    const short = send(await fillInstructions(order, { amount: 499_999n }));
    const otherOrder = send(
      await fillInstructions(order, { memo: solanaFillMemo(`0x${"11".repeat(32)}` as Hex, solverEvm) }),
    );
    const extra = send([...(await fillInstructions(order)), memoInstruction("and something else")]);
    for (const record of [short, otherOrder, extra]) assert.equal(readSolanaFill(order, record), undefined);
  });

  test("a transfer into another account than the recipient's, with the right memo, is no fill", async () => {
    const order = await target(700_000n);
    const [create, , memo] = await fillInstructions(order);
    const solver = solverKeypair().address;
    const [elsewhere] = await findAssociatedTokenPda({
      owner: address(devnet.manifest.users[0]!.address),
      mint: address(mint()),
      tokenProgram: TOKEN_PROGRAM_ADDRESS,
    });
    const [source] = await findAssociatedTokenPda({
      owner: solver,
      mint: address(mint()),
      tokenProgram: TOKEN_PROGRAM_ADDRESS,
    });
    const diverted = send([
      create!,
      getTransferCheckedInstruction({
        source,
        mint: address(mint()),
        destination: elsewhere,
        authority: createNoopSigner(solver),
        amount: order.output.amount,
        decimals: 6,
      }),
      memo!,
    ]);
    assert.equal(readSolanaFill(order, diverted), undefined);
  });

  test("an exact fill that lands after the fill deadline is no fill", async () => {
    const order = await target(300_000n);
    devnet.chain.increaseTime(61);
    const late = send(await fillInstructions(order));
    assert.ok(late.blockTime > order.fillDeadline);
    assert.equal(late.err, null, "the transfer itself lands");
    assert.equal(readSolanaFill(order, late), undefined);
  });

  test("a quote's output is a Solana target only with both accounts on this chain, a served mint and an input among its counterparts", () => {
    const solana = devnet.manifest;
    const recipient = devnet.manifest.users[3]!.address;
    const onSolana = (account: string, genesisHash = solana.genesisHash) =>
      encodeSolanaInteropAddress(genesisHash, account);
    const input = { chainId: evmChainId, token: evmUsdc };
    const refusal = (statusCode: number) => (error: unknown) =>
      error instanceof SolverError && error.statusCode === statusCode;

    assert.equal(
      solanaOutputTarget(
        solana,
        {
          receiver: encodeInteropAddress(evmChainId, solverEvm),
          asset: encodeInteropAddress(evmChainId, evmUsdc),
        },
        input,
      ),
      undefined,
      "an EVM output is no Solana target",
    );
    assert.throws(
      () =>
        solanaOutputTarget(
          solana,
          { receiver: onSolana(recipient), asset: encodeInteropAddress(evmChainId, evmUsdc) },
          input,
        ),
      refusal(400),
    );
    const otherGenesis = devnetSolanaKeypair("another chain").address;
    assert.throws(
      () =>
        solanaOutputTarget(
          solana,
          { receiver: onSolana(recipient, otherGenesis), asset: onSolana(mint(), otherGenesis) },
          input,
        ),
      refusal(422),
    );
    assert.throws(
      () => solanaOutputTarget(solana, { receiver: onSolana(recipient), asset: onSolana(recipient) }, input),
      refusal(422),
      "a mint the chain does not serve",
    );
    for (const other of [
      { chainId: evmChainId, token: solverEvm },
      { chainId: evmChainId + 1, token: evmUsdc },
    ])
      assert.throws(
        () => solanaOutputTarget(solana, { receiver: onSolana(recipient), asset: onSolana(mint()) }, other),
        refusal(422),
        "an input that is not the mint's counterpart",
      );

    const found = solanaOutputTarget(
      solana,
      { receiver: onSolana(recipient), asset: onSolana(mint()) },
      input,
    );
    assert.equal(found?.recipient, recipient);
    assert.equal(found?.token.mint, mint());
    assert.equal(found?.oifChainId, solanaOifChainId(solana.genesisHash));
    assert.equal(found?.outputSettler, solanaKeyToBytes32(solana.escrow.settler.address));
  });

  test("amounts are rescaled between decimals, the output rounded down and an exact output's input up", () => {
    const rows: [bigint, number, number, "down" | "up", bigint][] = [
      [1_000_000n, 6, 6, "down", 1_000_000n],
      [1_000_000n, 6, 9, "down", 1_000_000_000n],
      [1_234_567_891n, 9, 6, "down", 1_234_567n],
      [1_234_567_891n, 9, 6, "up", 1_234_568n],
      [1_234_567_000n, 9, 6, "up", 1_234_567n],
    ];
    for (const [amount, from, to, rounding, expected] of rows)
      assert.equal(
        rescaleAmount(amount, from, to, rounding),
        expected,
        `${amount} ${from}→${to} ${rounding}`,
      );
  });
});
