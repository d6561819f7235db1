import assert from "node:assert/strict";
import type { DevnetAccount } from "@hub/chain";
import { type ExecutionTx, type QuoteWinner, quoteWinnerSchema } from "@hub/contract";
import { pollUntil } from "@hub/test-support";
import { erc20Abi, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { dataOf, type LaneAnswer, type LaneStack } from "./lane-stack.js";

/** How executionTx names its chains: an integer on the proxy lanes, a CAIP-2 string on the open flow. */
export type ChainIdForm = "integer" | "chain-domain";

/** One transaction the wallet sent, as the on-chain views find it. */
export interface SentTransaction {
  kind: "approval" | "step";
  chainId: number;
  chainDomain: string;
  hash: Hex;
}

/**
 * A wallet for one lane: a funded devnet account that quotes under its own subject, sends what the
 * winner discloses exactly as disclosed, signs where the lane asks and registers, all through the gateway.
 */
export interface LaneWallet {
  address: Hex;
  subject: string;
  /** POST /quote; the winner held to the contract. */
  quote(request: Record<string, unknown>): Promise<QuoteWinner>;
  /** Sends the approvals, then the steps, in order; each is mined and succeeded before the next. */
  send(executionTx: ExecutionTx, form: ChainIdForm): Promise<SentTransaction[]>;
  /** personal_sign (EIP-191) of the winner's signIntent, verbatim. */
  signIntent(winner: QuoteWinner): Promise<Hex>;
  /** POST /order/openfor without signature (the proxy lanes). */
  openFor(winner: QuoteWinner, extra?: Record<string, unknown>): Promise<LaneAnswer>;
  /** POST /order with the body given. */
  createOrder(body: Record<string, unknown>): Promise<LaneAnswer>;
  /** Polls a status route until `isFinal` holds, or fails after the deadline. */
  follow<T>(path: string, isFinal: (data: T) => boolean, deadlineMs?: number): Promise<T>;
}

export function laneWallet(stack: LaneStack, account: DevnetAccount, subject: string): LaneWallet {
  const address = account.address.toLowerCase() as Hex;

  function chainOf(chainId: number | string, form: ChainIdForm): { chainId: number; chainDomain: string } {
    if (form === "integer") {
      assert.equal(typeof chainId, "number", `executionTx chainId ${JSON.stringify(chainId)} is an integer`);
      const client = stack.chains.get(chainId as number);
      return { chainId: client.chain.chainId, chainDomain: client.chain.chainDomain };
    }
    assert.equal(
      typeof chainId,
      "string",
      `executionTx chainId ${JSON.stringify(chainId)} is a chain domain`,
    );
    const chain = stack.devnet.manifest.chains.find((c) => c.chainDomain === chainId);
    assert.ok(chain, `executionTx names a devnet chain: ${chainId}`);
    return { chainId: chain.chainId, chainDomain: chain.chainDomain };
  }

  async function mined(chainId: number, hash: Hex): Promise<void> {
    const receipt = await stack.chains.get(chainId).publicClient.waitForTransactionReceipt({ hash });
    assert.equal(receipt.status, "success", `transaction ${hash} on ${chainId} succeeded`);
  }

  return {
    address,
    subject,
    async quote(request) {
      return quoteWinnerSchema.parse(
        dataOf(await stack.api("POST", "/v1/quote", { subject, json: request })),
      );
    },
    async send(executionTx, form) {
      const sent: SentTransaction[] = [];
      for (const approval of executionTx.approvals) {
        const chain = chainOf(approval.chainId, form);
        const hash = await stack.chains
          .get(chain.chainId)
          .wallet(account)
          .writeContract({
            address: approval.token as Hex,
            abi: erc20Abi,
            functionName: "approve",
            args: [approval.spender as Hex, BigInt(approval.amount)],
          });
        await mined(chain.chainId, hash);
        sent.push({ kind: "approval", ...chain, hash });
      }
      for (const step of executionTx.steps) {
        const chain = chainOf(step.chainId, form);
        const hash = await stack.chains
          .get(chain.chainId)
          .wallet(account)
          .sendTransaction({ to: step.to as Hex, data: step.data as Hex, value: BigInt(step.value) });
        await mined(chain.chainId, hash);
        sent.push({ kind: "step", ...chain, hash });
      }
      return sent;
    },
    async signIntent(winner) {
      assert.ok(winner.signIntent, "the winner carries signIntent");
      return privateKeyToAccount(account.privateKey).signMessage({ message: winner.signIntent });
    },
    openFor(winner, extra = {}) {
      return stack.api("POST", "/v1/order/openfor", {
        subject,
        json: { quoteRequestId: winner.quoteRequestId, quoteId: winner.quoteId, ...extra },
      });
    },
    createOrder(body) {
      return stack.api("POST", "/v1/order", { subject, json: body });
    },
    follow<T>(path: string, isFinal: (data: T) => boolean, deadlineMs = 60_000) {
      let last: T | undefined;
      return pollUntil(
        () => `${path} to be final; last read ${JSON.stringify(last)}`,
        async () => {
          last = dataOf<T>(await stack.api("GET", path, { subject }));
          return isFinal(last) && last;
        },
        { timeoutMs: deadlineMs, intervalMs: 500 },
      );
    },
  };
}

/** Prints the one timing line of a lane test: from the quote request to the final state. */
export function reportLaneTiming(lane: string, quotedAtMs: number): number {
  const quoteToFinalMs = Math.round(performance.now() - quotedAtMs);
  console.log(`LANE_TIMING ${JSON.stringify({ lane, quoteToFinalMs })}`);
  return quoteToFinalMs;
}
