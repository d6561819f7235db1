import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { ReservationState } from "@hub/admin";
import { HubError } from "@hub/contract";
import { normaliseOpenForSignature } from "../src/submissions/normalise-open-for-signature.js";
import {
  type ForwardEnding,
  type ForwardSettlement,
  moveOnExistingReservation,
  settleForward,
} from "../src/submissions/reservation-rules.js";

describe("reservation rules (POST /order/openfor rules 3-8)", () => {
  const existing: [ReservationState, ReturnType<typeof moveOnExistingReservation>["kind"], string][] = [
    ["acked", "answer-ack", "rule 3: an identical re-post returns the same ack"],
    ["forwarding", "answer-unknown", "rule 4: a forward under way (or cut by a crash) answers EIN0052"],
    ["unknown", "answer-unknown", "rule 4: an unanswered forward answers EIN0052 until reconciled"],
    ["refused", "forward-again", "rule 7: a re-post after EIN0021 forwards again"],
    ["released", "forward-again", "rule 5: nothing was sent, a re-post forwards again"],
  ];
  for (const [state, move, rule] of existing) {
    test(`a re-post finding ${state}: ${move} (${rule})`, () => {
      assert.equal(moveOnExistingReservation(state).kind, move);
    });
  }

  const rows: [ForwardEnding, boolean, ForwardSettlement, string][] = [
    [{ kind: "accepted" }, false, { state: "acked" }, "accepted: the ack"],
    [{ kind: "solver-rejected" }, false, { state: "refused", code: "EIN0021" }, "rule 7: solver declined"],
    [{ kind: "rate-limited" }, false, { state: "unknown", code: "EIN0081" }, "rule 5: upstream 429 keeps it"],
    [{ kind: "not-sent" }, false, { state: "released", code: "EIN0050" }, "rule 5: nothing sent releases"],
    [
      { kind: "auth-refused" },
      false,
      { state: "released", code: "EIN0050", params: ["upstreamAuth"] },
      "EIN0050 upstreamAuth releases",
    ],
    [{ kind: "unknown" }, false, { state: "unknown", code: "EIN0050" }, "rule 5: sent, no answer: kept"],
    [
      { kind: "refused" },
      false,
      { state: "refused", code: "EIN0007" },
      "rule 8: upstream refusal (QUOTE_EXPIRED)",
    ],
    [
      { kind: "accepted-unverifiable" },
      false,
      { state: "unknown", code: "EIN0050" },
      "an ack with an id the hub cannot stand behind is for the operator",
    ],
    [{ kind: "accepted" }, true, { state: "acked" }, "after a decline, an acceptance is still the truth"],
    [
      { kind: "solver-rejected" },
      true,
      { state: "unknown", code: "EIN0050" },
      "rule 7: after EIN0021 a re-post answers EIN0050 (then EIN0052)",
    ],
    [
      { kind: "refused" },
      true,
      { state: "unknown", code: "EIN0050" },
      "rule 7: the upstream no longer knows the quote",
    ],
    [{ kind: "unknown" }, true, { state: "unknown", code: "EIN0050" }, "rule 7: unknown after a decline"],
    [
      { kind: "not-sent" },
      true,
      { state: "released", code: "EIN0050" },
      "nothing sent releases, even after a decline",
    ],
  ];
  for (const [ending, afterDecline, settlement, rule] of rows) {
    test(`${ending.kind}${afterDecline ? " after a decline" : ""} → ${settlement.state} ${settlement.code ?? "ack"} (${rule})`, () => {
      assert.deepEqual(settleForward(ending, { afterDecline }), settlement);
    });
  }
});

describe("openFor signature per lane", () => {
  const sig65 = `0x${"ab".repeat(65)}`;
  const refusedAs = (fn: () => unknown) =>
    assert.throws(
      fn,
      (error: unknown) =>
        error instanceof HubError && error.code === "EIN0001" && error.reference === "signature",
    );

  test("Permit2 lane: 0x00 ‖ 65 bytes is forwarded lowercase; the raw 65-byte form and a missing signature are EIN0001 signature", () => {
    assert.equal(
      normaliseOpenForSignature("oif-escrow-gasless", `0x00${"AB".repeat(65)}`),
      `0x00${"ab".repeat(65)}`,
    );
    refusedAs(() => normaliseOpenForSignature("oif-escrow-gasless", sig65));
    refusedAs(() => normaliseOpenForSignature("oif-escrow-gasless", `0x01${"ab".repeat(65)}`));
    refusedAs(() => normaliseOpenForSignature("oif-escrow-gasless", undefined));
    refusedAs(() => normaliseOpenForSignature("oif-escrow-gasless", ""));
  });

  test("EIP-3009 lane: the raw 65 bytes and the 0x01-prefixed form both go upstream as 0x01 ‖ 65 bytes", () => {
    assert.equal(normaliseOpenForSignature("aggregator-gasless", sig65), `0x01${"ab".repeat(65)}`);
    assert.equal(
      normaliseOpenForSignature("aggregator-gasless", `0x01${"ab".repeat(65)}`),
      `0x01${"ab".repeat(65)}`,
    );
    refusedAs(() => normaliseOpenForSignature("aggregator-gasless", `0x00${"ab".repeat(65)}`));
    refusedAs(() => normaliseOpenForSignature("aggregator-gasless", "0x1234"));
  });

  test("proxy lanes: no signature; one sent is EIN0001 signature", () => {
    assert.equal(normaliseOpenForSignature("oif-wrap-native", undefined), undefined);
    assert.equal(normaliseOpenForSignature("oif-swap-token", ""), undefined);
    refusedAs(() => normaliseOpenForSignature("oif-swap-token", sig65));
  });

  test("Solana lane: a 97-byte base64 envelope starting with 0x00", () => {
    const envelope = Buffer.concat([Buffer.from([0]), Buffer.alloc(96, 7)]).toString("base64");
    assert.equal(normaliseOpenForSignature("oif-escrow-nonevm", envelope), envelope);
    refusedAs(() => normaliseOpenForSignature("oif-escrow-nonevm", Buffer.alloc(97, 1).toString("base64")));
    refusedAs(() => normaliseOpenForSignature("oif-escrow-nonevm", sig65));
  });
});
