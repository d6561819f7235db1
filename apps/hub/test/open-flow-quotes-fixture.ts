import assert from "node:assert/strict";
import { after, before, beforeEach } from "node:test";
import { bridgeAbi } from "@hub/chain";
import type { Catalog, CatalogChain } from "@hub/contract";
import { encodeFunctionData, getAddress, type Hex, keccak256, toHex } from "viem";
import type { OpenFlowTemplate } from "../src/providers/external-aggregator/open-flow-template.js";
import {
  type ExternalStandIn,
  type StandInAnswer,
  startExternalStandIn,
} from "./open-flow-quotes-stand-in.js";
import { disposeQuoteDatabases, type QuoteHub, startQuoteHub } from "./quote-hub.js";
import { readQuoteRows } from "./store/quote-rows.js";

// biome-ignore lint/suspicious/noExplicitAny: the tests build and doctor upstream JSON.
export type Json = Record<string, any>;

export const USER = "0x1111111111111111111111111111111111111111";
export const RECIPIENT = "0x2222222222222222222222222222222222222222";
export const OTHER = "0x3333333333333333333333333333333333333333";

export function chain(chainId: number, bridge: string, usdc: string, token: string): CatalogChain {
  return {
    chainDomain: `eip155:${chainId}`,
    chainId,
    name: `Chain ${chainId}`,
    native: { symbol: "ETH", decimals: 18 },
    nativeKey: `eip155:${chainId}/slip44:60`,
    bridge,
    inputSettlers: { escrow: "0x00000000000000000000000000000000000000e1" },
    outputSettler: "0x00000000000000000000000000000000000000e2",
    inputOracle: "0x00000000000000000000000000000000000000e3",
    permit2: "0x000000000022d473030f116ddee9f6b43ac78ba3",
    assets: [
      {
        key: `eip155:${chainId}/erc20:${usdc}`,
        symbol: "USDC",
        decimals: 6,
        address: usdc,
        authorizations: ["permit2"],
      },
      {
        key: `eip155:${chainId}/erc20:${token}`,
        symbol: "TKN",
        decimals: 18,
        address: token,
        authorizations: ["permit2"],
      },
    ],
  };
}

export const chainA: CatalogChain = {
  ...chain(
    31337,
    // Letters enough that a checksum is mixed case.
    "0xb1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1",
    "0x00000000000000000000000000000000000000a1",
    "0x00000000000000000000000000000000000000a2",
  ),
  // The native coin is a proxy-lane source (oif-wrap-native; TKN stands in for the wrapped coin).
  userProxy: "0x00000000000000000000000000000000000000d1",
  wrappedKey: "eip155:31337/erc20:0x00000000000000000000000000000000000000a2",
};
export const chainB = chain(
  31338,
  "0x00000000000000000000000000000000000000b2",
  "0x00000000000000000000000000000000000000c1",
  "0x00000000000000000000000000000000000000c2",
);
/** A chain whose catalog entry names no bridge: nothing bridged to it could be seen released. */
const { bridge: _noBridge, ...chainWithoutBridge } = chain(
  31339,
  "0x00000000000000000000000000000000000000b3",
  "0x00000000000000000000000000000000000000f1",
  "0x00000000000000000000000000000000000000f2",
);
export const chainC: CatalogChain = chainWithoutBridge;
export const catalog: Catalog = { families: { evm: [chainA, chainB, chainC], solana: [] } };
export const usdcA = chainA.assets[0]!;
export const tknA = chainA.assets[1]!;
export const usdcB = chainB.assets[0]!;

export function chainOfKey(key: string): CatalogChain {
  return catalog.families.evm.find((entry) => key.startsWith(`${entry.chainDomain}/`))!;
}

let counter = 0;

/** What a well-behaved external aggregator answers (the devnet's shape): a bridge transfer at 10 bps. */
export function bridgeAnswer(request: Json, lifetimeMs = 30_000): Json {
  const source = chainOfKey(request.sourceAsset);
  const destination = chainOfKey(request.destinationAsset);
  const token = getAddress(request.sourceAsset.split(":").at(-1));
  // Checksummed, as the devnet's aggregator sends them.
  const bridge = getAddress(source.bridge!);
  const amountIn = BigInt(request.amount);
  counter += 1;
  const quoteId = `xq_${counter}`;
  const depositRef = keccak256(toHex(`stand-in:${quoteId}`));
  return {
    quoteId,
    provider: "stand-in-bridge",
    kind: "bridge",
    executionClass: "BRIDGE",
    sourceAsset: request.sourceAsset,
    destinationAsset: request.destinationAsset,
    amountIn: amountIn.toString(),
    amountOut: ((amountIn * 999n) / 1000n).toString(),
    recipient: request.recipient,
    ...(request.sourceAccount ? { sourceAccount: request.sourceAccount } : {}),
    expiresAt: new Date(Date.now() + lifetimeMs).toISOString(),
    depositRef,
    executionTx: {
      approvals: [{ chainId: source.chainDomain, token, spender: bridge, amount: amountIn.toString() }],
      steps: [
        {
          chainId: source.chainDomain,
          to: bridge,
          data: encodeFunctionData({
            abi: bridgeAbi,
            functionName: "deposit",
            args: [token, amountIn, BigInt(destination.chainId), request.recipient, depositRef],
          }),
          value: "0",
          description: `Deposit ${amountIn} into the bridge for ${destination.chainDomain}`,
        },
      ],
    },
  };
}

/** A same-chain answer without transactions (solver-swap or transfer). */
export function sameChainAnswer(request: Json, kind: "solver-swap" | "transfer"): Json {
  const { executionTx: _none, depositRef: _ref, ...rest } = bridgeAnswer(request);
  return { ...rest, kind, executionClass: kind === "transfer" ? "TRANSFER" : "INFINITY_SOLVER" };
}

export const ok = (body: unknown): StandInAnswer => ({ status: 200, body });

export function depositData(
  args: Partial<{ token: string; amount: bigint; chainId: bigint; recipient: string }>,
): Hex {
  return encodeFunctionData({
    abi: bridgeAbi,
    functionName: "deposit",
    args: [
      (args.token ?? usdcA.address!) as Hex,
      args.amount ?? 1_000_000n,
      args.chainId ?? 31338n,
      (args.recipient ?? RECIPIENT) as Hex,
      keccak256(toHex("ref")),
    ],
  });
}

export function crossChain(extra: Json = {}): Json {
  return {
    sourceAsset: usdcA.key,
    destinationAsset: usdcB.key,
    amount: "1000000",
    recipient: RECIPIENT,
    sourceAccount: USER,
    ...extra,
  };
}

/** The bridge deposit step of an open-flow answer. */
export const bridgeStep = (quote: Json) => quote.executionTx.steps[0];
/** The token approval of an open-flow answer. */
export const approval = (quote: Json) => quote.executionTx.approvals[0];

/** Two external stand-ins, a hub asking the first (1 s timeout) and a pair hub asking both. */
export interface OpenFlowQuoteStack {
  standIn: ExternalStandIn;
  second: ExternalStandIn;
  hub: QuoteHub;
  pair: QuoteHub;
}

/**
 * Starts the stack before the file's tests, gives both stand-ins a valid bridge answer and no delay
 * before each test, and stops everything after.
 */
export function useOpenFlowQuoteStack(): OpenFlowQuoteStack {
  const stack = {} as OpenFlowQuoteStack;
  before(async () => {
    stack.standIn = await startExternalStandIn();
    stack.second = await startExternalStandIn();
    stack.hub = await startQuoteHub({
      catalog,
      providers: [{ id: "ext", kind: "external-aggregator", baseUrl: stack.standIn.url, timeoutMs: 1000 }],
    });
    stack.pair = await startQuoteHub({
      catalog,
      providers: [
        { id: "ext", kind: "external-aggregator", baseUrl: stack.standIn.url },
        { id: "ext2", kind: "external-aggregator", baseUrl: stack.second.url },
      ],
    });
  });
  beforeEach(() => {
    stack.standIn.answer = (request) => ok(bridgeAnswer(request));
    stack.second.answer = (request) => ok(bridgeAnswer(request));
    stack.standIn.delayMs = 0;
    stack.second.delayMs = 0;
  });
  after(async () => {
    await stack.hub?.stop();
    await stack.pair?.stop();
    await stack.standIn?.close();
    await stack.second?.close();
    await disposeQuoteDatabases();
  });
  return stack;
}

/** The stored row of a winner and its template. */
export async function storedTemplate(
  target: QuoteHub,
  quoteId: string,
): Promise<{ row: Json; template: OpenFlowTemplate }> {
  const rows = await readQuoteRows<Json>(target.db.sql, quoteId);
  assert.equal(rows.length, 1, "the winner is stored");
  const row = rows[0]!;
  const template = typeof row.template === "string" ? JSON.parse(row.template) : row.template;
  return { row, template };
}
