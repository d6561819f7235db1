import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { encodeFunctionData, erc20Abi, keccak256, toHex } from "viem";
import { assertRefusal } from "./hub-fixture.js";
import {
  approval,
  bridgeAnswer,
  bridgeStep,
  chainB,
  crossChain,
  depositData,
  type Json,
  OTHER,
  ok,
  tknA,
  useOpenFlowQuoteStack,
} from "./open-flow-quotes-fixture.js";

describe("external answers the hub's vetting discards", () => {
  const stack = useOpenFlowQuoteStack();

  /** The deposit calldata with the 12 padding bytes of its recipient word set: viem decodes it anyway. */
  const dirtyRecipient = (data: string) => {
    const word = 2 + 8 + 64 * 3;
    return data.slice(0, word) + "ff".repeat(12) + data.slice(word + 24);
  };
  const vettingCases: { name: string; reason: string; detail?: string; doctor: (quote: Json) => void }[] = [
    {
      name: "a wrong amountIn",
      reason: "amount",
      doctor: (q) => {
        q.amountIn = "999999";
      },
    },
    {
      name: "a wrong recipient",
      reason: "recipient",
      doctor: (q) => {
        q.recipient = OTHER;
      },
    },
    {
      name: "another source asset",
      reason: "input",
      doctor: (q) => {
        q.sourceAsset = tknA.key;
      },
    },
    {
      name: "another destination asset",
      reason: "output",
      doctor: (q) => {
        q.destinationAsset = chainB.assets[1]!.key;
      },
    },
    {
      name: "a sourceAccount not asked for",
      reason: "user",
      doctor: (q) => {
        q.sourceAccount = OTHER;
      },
    },
    {
      name: "an integer chainId on the approval",
      reason: "chain-id",
      doctor: (q) => {
        approval(q).chainId = 31337;
      },
    },
    {
      name: "another chain's domain on the step",
      reason: "chain-id",
      doctor: (q) => {
        bridgeStep(q).chainId = "eip155:31338";
      },
    },
    {
      name: "a miscased chain domain",
      reason: "chain-id",
      doctor: (q) => {
        bridgeStep(q).chainId = "EIP155:31337";
      },
    },
    {
      name: "an approval to another spender",
      reason: "approval",
      doctor: (q) => {
        approval(q).spender = OTHER;
      },
    },
    {
      name: "an approval of more than the amount",
      reason: "approval",
      doctor: (q) => {
        approval(q).amount = "2000000";
      },
    },
    { name: "two approvals", reason: "approval", doctor: (q) => q.executionTx.approvals.push(approval(q)) },
    {
      name: "calldata that is not a deposit",
      reason: "deposit",
      doctor: (q) => {
        bridgeStep(q).data = encodeFunctionData({
          abi: erc20Abi,
          functionName: "transfer",
          args: [OTHER, 1_000_000n],
        });
      },
    },
    {
      name: "a step to another contract",
      reason: "deposit",
      doctor: (q) => {
        bridgeStep(q).to = OTHER;
      },
    },
    {
      name: "a deposit for another recipient",
      reason: "deposit",
      doctor: (q) => {
        bridgeStep(q).data = depositData({ recipient: OTHER });
      },
    },
    {
      name: "a deposit to another chain",
      reason: "deposit",
      doctor: (q) => {
        bridgeStep(q).data = depositData({ chainId: 1n });
      },
    },
    {
      name: "a deposit of less",
      reason: "deposit",
      doctor: (q) => {
        bridgeStep(q).data = depositData({ amount: 1n });
      },
    },
    {
      name: "a deposit of another token",
      reason: "deposit",
      doctor: (q) => {
        bridgeStep(q).data = depositData({ token: tknA.address! });
      },
    },
    {
      name: "a step with value",
      reason: "deposit",
      doctor: (q) => {
        bridgeStep(q).value = "1";
      },
    },
    {
      name: "a depositRef the calldata does not carry",
      reason: "deposit",
      doctor: (q) => {
        q.depositRef = keccak256(toHex("x"));
      },
    },
    {
      name: "no executionTx on a bridge answer",
      reason: "deposit",
      doctor: (q) => {
        delete q.executionTx;
      },
    },
    {
      name: "an unknown kind",
      reason: "kind",
      doctor: (q) => {
        q.kind = "teleport";
      },
    },
    {
      name: "a solver-swap answer across chains",
      reason: "kind",
      doctor: (q) => {
        q.kind = "solver-swap";
      },
    },
    {
      name: "an execution class that is not the kind's",
      reason: "kind",
      doctor: (q) => {
        q.executionClass = "INFINITY_SOLVER";
      },
    },
    {
      name: "too little validity left",
      reason: "expired",
      doctor: (q) => {
        q.expiresAt = new Date(Date.now() + 2000).toISOString();
      },
    },
    {
      name: "an open-flow answer with 10 s left, under openFlowMinValidityMs (two transactions to mine)",
      reason: "expired",
      detail: "under 15000 ms",
      doctor: (q) => {
        q.expiresAt = new Date(Date.now() + 10_000).toISOString();
      },
    },
    {
      name: "a bridge answer promising more than it takes in (a bridge cannot create value)",
      reason: "amount",
      detail: "exceeds amountIn",
      doctor: (q) => {
        q.amountOut = "1000001";
      },
    },
    {
      name: "deposit calldata with trailing bytes",
      reason: "deposit",
      detail: "canonical encoding",
      doctor: (q) => {
        bridgeStep(q).data += "00".repeat(32);
      },
    },
    {
      name: "a deposit recipient with dirty high bytes (the contract would revert)",
      reason: "deposit",
      detail: "canonical encoding",
      doctor: (q) => {
        bridgeStep(q).data = dirtyRecipient(bridgeStep(q).data);
      },
    },
    {
      name: "a NUL in an extra field (PostgreSQL's jsonb cannot store it)",
      reason: "malformed",
      detail: "answer.note",
      doctor: (q) => {
        q.note = "a\u0000b";
      },
    },
    {
      name: "an unpaired surrogate in the step description",
      reason: "malformed",
      detail: "answer.executionTx.steps.0.description",
      doctor: (q) => {
        bridgeStep(q).description = "Deposit \ud800";
      },
    },
    {
      name: "a NUL in a key",
      reason: "malformed",
      detail: "(a key)",
      doctor: (q) => {
        q["x\u0000"] = 1;
      },
    },
    {
      name: "an expiresAt 25 h ahead, past the 24 h deadline bound",
      reason: "deadline-too-far",
      detail: "past the 86400 s bound",
      doctor: (q) => {
        q.expiresAt = new Date(Date.now() + 25 * 3_600_000).toISOString();
      },
    },
    {
      name: "no quoteId",
      reason: "malformed",
      doctor: (q) => {
        delete q.quoteId;
      },
    },
    {
      name: "uppercase calldata",
      reason: "malformed",
      doctor: (q) => {
        bridgeStep(q).data = bridgeStep(q).data.toUpperCase().replace("0X", "0x");
      },
    },
  ];

  for (const { name, reason, detail, doctor } of vettingCases) {
    test(`${name} is discarded (reason ${reason}) and the round has no winner`, async () => {
      stack.standIn.answer = (request) => {
        const quote = bridgeAnswer(request);
        doctor(quote);
        return ok(quote);
      };
      const before = await stack.hub.metric("hub_quote_vetting_rejections_total", {
        provider: "ext",
        reason,
      });
      const answer = (await stack.hub.post("/v1/quote", crossChain())).answer;
      assertRefusal(answer, "EIN0008");
      assert.equal(
        await stack.hub.metric("hub_quote_vetting_rejections_total", { provider: "ext", reason }),
        before + 1,
      );
      assert.ok(
        stack.hub.logLines.some(
          (line) =>
            line.includes("external quote discarded by vetting") &&
            line.includes(`"reason":"${reason}"`) &&
            (detail === undefined || line.includes(detail)),
        ),
        `the discard is logged with its reason${detail === undefined ? "" : ` and "${detail}"`}`,
      );
    });
  }
});
