import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { solanaKeyToBytes32 } from "@hub/chain";
import {
  readSolanaOrderFact,
  type SolanaEscrowAccounts,
} from "../src/chains/solana/read-solana-order-fact.js";
import type {
  SolanaInstructionView,
  SolanaTransactionView,
} from "../src/chains/solana/solana-chain-reader.js";

const TOKEN = "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA";
const MEMO = "MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr";
const key = (n: number) => `${"1".repeat(31)}${"ABCDEFGHJKLMNPQRSTUVWXYZ"[n]}`;
const SETTLER = "8qbHbw2BbbTHBW1sbeqakYXVKRQM8Ne7pLK7m6CVfeR";
const MINT = "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v";
const VAULT = "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM";
const USER = "4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T";
const ORDER_ID = `0x${"ab".repeat(32)}`;
const escrow: SolanaEscrowAccounts = {
  settler: SETTLER,
  outputSettler: SETTLER,
  oifChainId: "123",
  vaults: new Map([[VAULT, MINT]]),
};

function transferChecked(
  source: string,
  mint: string,
  destination: string,
  authority: string,
  amount: bigint,
) {
  const data = new Uint8Array(10);
  data[0] = 12;
  new DataView(data.buffer).setBigUint64(1, amount, true);
  data[9] = 6;
  return { programId: TOKEN, accounts: [source, mint, destination, authority], data };
}
const memo = (text: string): SolanaInstructionView => ({
  programId: MEMO,
  accounts: [],
  data: new TextEncoder().encode(text),
});

function tx(
  instructions: SolanaInstructionView[],
  options: { failed?: boolean; owners?: Record<string, string> } = {},
): SolanaTransactionView {
  return {
    signature: "5".repeat(88),
    slot: 7,
    blockTime: 1_800_000_000,
    failed: options.failed ?? false,
    instructions,
    postTokenBalances: Object.entries(options.owners ?? {}).map(([account, owner]) => ({
      account,
      mint: MINT,
      owner,
    })),
  };
}

const userAccount = key(1);
const solverAccount = key(2);
const recipientAccount = key(3);
const SOLVER = key(4);
const RECIPIENT = key(5);

describe("readSolanaOrderFact: what a transaction says about an order", () => {
  const rows: Array<
    [string, SolanaTransactionView, Partial<ReturnType<typeof readSolanaOrderFact>> | undefined]
  > = [
    [
      "transferChecked into the mint's vault with the order id as memo is a deposit by its authority",
      tx([transferChecked(userAccount, MINT, VAULT, USER, 5n), memo(ORDER_ID)]),
      {
        kind: "deposit",
        onchainOrderId: ORDER_ID,
        amount: "5",
        authority: USER,
        destination: VAULT,
        instructionIndex: 1,
      },
    ],
    [
      "a failed transaction carries nothing",
      tx([transferChecked(userAccount, MINT, VAULT, USER, 5n), memo(ORDER_ID)], { failed: true }),
      undefined,
    ],
    [
      "a deposit into an account that is no vault is nothing",
      tx([transferChecked(userAccount, MINT, key(9), USER, 5n), memo(ORDER_ID)]),
      undefined,
    ],
    [
      "a deposit of another mint into the vault is nothing",
      tx([transferChecked(userAccount, key(8), VAULT, USER, 5n), memo(ORDER_ID)]),
      undefined,
    ],
    [
      "two transfers in one transaction are nothing (the memo names one)",
      tx([
        transferChecked(userAccount, MINT, VAULT, USER, 5n),
        transferChecked(userAccount, MINT, VAULT, USER, 5n),
        memo(ORDER_ID),
      ]),
      undefined,
    ],
    [
      "the settler's transfer out of the vault with release:<id> is a release to the credited account's owner",
      tx([transferChecked(VAULT, MINT, solverAccount, SETTLER, 5n), memo(`release:${ORDER_ID}`)], {
        owners: { [solverAccount]: SOLVER },
      }),
      { kind: "release", onchainOrderId: ORDER_ID, destinationOwner: SOLVER, authority: SETTLER },
    ],
    [
      "refund:<id> by the settler is a refund",
      tx([transferChecked(VAULT, MINT, userAccount, SETTLER, 5n), memo(`refund:${ORDER_ID}`)], {
        owners: { [userAccount]: USER },
      }),
      { kind: "refund", onchainOrderId: ORDER_ID, destinationOwner: USER },
    ],
    [
      "release:<id> signed by anyone but the settler is nothing",
      tx([transferChecked(VAULT, MINT, solverAccount, USER, 5n), memo(`release:${ORDER_ID}`)], {
        owners: { [solverAccount]: SOLVER },
      }),
      undefined,
    ],
    [
      "fill:<id>:<EVM solver> paying a token account is a fill of the output it delivers",
      tx(
        [
          transferChecked(solverAccount, MINT, recipientAccount, SOLVER, 9n),
          memo(`fill:${ORDER_ID}:0x${"ee".repeat(20)}`),
        ],
        {
          owners: { [recipientAccount]: RECIPIENT },
        },
      ),
      {
        kind: "fill",
        onchainOrderId: ORDER_ID,
        evmSolver: `0x${"ee".repeat(20)}`,
        output: {
          oracle: solanaKeyToBytes32(SETTLER),
          settler: solanaKeyToBytes32(SETTLER),
          chainId: "123",
          token: solanaKeyToBytes32(MINT),
          amount: "9",
          recipient: solanaKeyToBytes32(RECIPIENT),
          callbackData: "0x",
          context: "0x",
        },
      },
    ],
    [
      "an uppercase order id in the memo names no order",
      tx([
        transferChecked(userAccount, MINT, VAULT, USER, 5n),
        memo(ORDER_ID.toUpperCase().replace("0X", "0x")),
      ]),
      undefined,
    ],
  ];
  for (const [name, transaction, expected] of rows) {
    test(name, () => {
      const fact = readSolanaOrderFact(transaction, escrow);
      if (expected === undefined) {
        assert.equal(fact, undefined);
        return;
      }
      assert.ok(fact);
      for (const [field, value] of Object.entries(expected)) {
        assert.deepEqual(fact[field as keyof typeof fact], value, field);
      }
    });
  }
});
