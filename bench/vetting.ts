// CPU per vetted upstream answer: an oif-svm-escrow-v0 answer (Solana → EVM: base64 and the v0 message
// decoded, both instructions held to the quote, output hash and escrow order id recomputed, digest)
// beside an oif-escrow-v0 Permit2 answer (EVM → EVM: typed data rebuilt and hashed, StandardOrder
// checked), in one run. Excluded: the sender's token account (derived once per round, measured apart)
// and the blockhash's RPC call (one per distinct blockhash, cached).
// `npm run bench -- vetting`, or standalone: `node --import tsx bench/vetting.ts`.
import { randomBytes } from "node:crypto";
import { loadavg } from "node:os";
import { pathToFileURL } from "node:url";
import { addressToBytes32, encodeBase58, solanaOifChainId } from "@hub/chain";
import type { Catalog, CatalogSolanaChain } from "@hub/contract";
import { address } from "@solana/kit";
import { findAssociatedTokenPda, TOKEN_PROGRAM_ADDRESS } from "@solana-program/token";
import { vetOifQuote } from "../apps/hub/src/providers/oif-aggregator/vet-oif-quote.js";
import { resolveQuoteRoute } from "../apps/hub/src/quotes/resolve-quote-route.js";
import { testCatalog } from "../apps/hub/test/hub-fixture.js";
import { permit2Answer, solanaAnswer } from "../apps/hub/test/solana-quote-answers.js";

const USDC = "0x00000000000000000000000000000000000000aa" as const;
const USER = "0x70997970c51812dc3a010c7d01b50e0d17dc79c8" as const;

function key(): string {
  return encodeBase58(randomBytes(32));
}

function cpuMicros(): number {
  const { user, system } = process.cpuUsage();
  return user + system;
}

/** CPU microseconds per call of `work`, after a warm-up. */
function cpuPerCall(iterations: number, work: () => void): { n: number; cpuMicrosPerAnswer: number } {
  for (let i = 0; i < Math.min(1000, iterations); i++) work();
  const start = cpuMicros();
  for (let i = 0; i < iterations; i++) work();
  return { n: iterations, cpuMicrosPerAnswer: Number(((cpuMicros() - start) / iterations).toFixed(1)) };
}

export async function run(options: { iterations?: number } = {}): Promise<object> {
  const iterations = options.iterations ?? 5000;
  const loadBefore = loadavg().map((n) => Number(n.toFixed(2)));
  const genesisHash = key();
  const mint = key();
  const chain: CatalogSolanaChain = {
    chainDomain: `solana:${genesisHash.slice(0, 32)}`,
    name: "bench",
    genesisHash,
    oifChainId: solanaOifChainId(genesisHash).toString(),
    native: { symbol: "SOL", decimals: 9 },
    nativeKey: `solana:${genesisHash.slice(0, 32)}/slip44:501`,
    escrow: { settler: key(), vaults: [{ mint, vault: key() }] },
    outputSettler: key(),
    assets: [{ key: `solana:${genesisHash.slice(0, 32)}/token:${mint}`, symbol: "USDC", decimals: 6, mint }],
  };
  const evm = testCatalog().families.evm[0]!;
  const catalog: Catalog = { families: { evm: [evm], solana: [chain] } };
  const sender = key();
  const feePayer = key();
  const nowSeconds = Math.floor(Date.now() / 1000);
  const nowMs = nowSeconds * 1000;

  const solanaRoute = resolveQuoteRoute(catalog, {
    sourceAsset: chain.assets[0]!.key,
    destinationAsset: `eip155:31337/erc20:${USDC}`,
    amount: "1000000",
    recipient: USER,
    sourceAccount: sender,
    swapType: "exact-input",
  });
  const ataStart = cpuMicros();
  const ataRounds = 200;
  let sourceTokenAccount = "";
  for (let i = 0; i < ataRounds; i++) {
    [sourceTokenAccount] = await findAssociatedTokenPda({
      owner: address(sender),
      mint: address(mint),
      tokenProgram: TOKEN_PROGRAM_ADDRESS,
    });
  }
  const ataCpuMicrosPerRound = Number(((cpuMicros() - ataStart) / ataRounds).toFixed(1));
  const solanaJson = await solanaAnswer({
    solverId: "alpha",
    quoteId: "q",
    sender,
    feePayer,
    chain,
    mint,
    decimals: 6,
    amount: 1_000_000n,
    outputAmount: 997_000n,
    destination: evm,
    destinationToken: USDC,
    recipient: USER,
    blockhash: key(),
    nowSeconds,
  });
  const solanaRaw = { ...solanaJson, solverId: "alpha" };
  const solanaContext = {
    providerId: "bench",
    route: solanaRoute,
    askedLane: "oif-escrow-nonevm" as const,
    nowMs,
    solana: { feePayers: { alpha: feePayer }, sourceTokenAccount },
  };
  const evmRoute = resolveQuoteRoute(testCatalog(), {
    sourceAsset: `eip155:31337/erc20:${USDC}`,
    destinationAsset: `eip155:31337/erc20:${USDC}`,
    amount: "1000000",
    recipient: USER,
    sourceAccount: USER,
    swapType: "exact-input",
  });
  const permit2Raw = {
    ...permit2Answer(
      {
        solverId: "alpha",
        quoteId: "q",
        source: evm,
        token: USDC,
        user: USER,
        amount: 1_000_000n,
        nowSeconds,
      },
      {
        oracle: addressToBytes32(evm.inputOracle as `0x${string}`),
        settler: addressToBytes32(evm.outputSettler as `0x${string}`),
        chainId: BigInt(evm.chainId),
        token: addressToBytes32(USDC),
        amount: 997_000n,
        recipient: addressToBytes32(USER),
        callbackData: "0x",
        context: "0x",
      },
    ),
    solverId: "alpha",
  };
  const evmContext = {
    providerId: "bench",
    route: evmRoute,
    askedLane: "oif-escrow-gasless" as const,
    nowMs,
  };
  for (const [raw, context] of [
    [solanaRaw, solanaContext],
    [permit2Raw, evmContext],
  ] as const) {
    const outcome = vetOifQuote(raw, context);
    if (!outcome.ok) throw new Error(`the bench's answer does not vet: ${outcome.reason} ${outcome.detail}`);
  }
  // Interleaved halves, so a change in the machine's load falls on both.
  const half = Math.floor(iterations / 2);
  const solanaA = cpuPerCall(half, () => vetOifQuote(solanaRaw, solanaContext));
  const permit2A = cpuPerCall(half, () => vetOifQuote(permit2Raw, evmContext));
  const solanaB = cpuPerCall(half, () => vetOifQuote(solanaRaw, solanaContext));
  const permit2B = cpuPerCall(half, () => vetOifQuote(permit2Raw, evmContext));
  const mean = (a: { cpuMicrosPerAnswer: number }, b: { cpuMicrosPerAnswer: number }) =>
    Number(((a.cpuMicrosPerAnswer + b.cpuMicrosPerAnswer) / 2).toFixed(1));
  return {
    solanaEscrow: {
      answers: half * 2,
      cpuMicrosPerAnswer: mean(solanaA, solanaB),
      halves: [solanaA.cpuMicrosPerAnswer, solanaB.cpuMicrosPerAnswer],
      messageBytes: Buffer.from(solanaJson.order.payload.transactionMessage, "base64").length,
      senderTokenAccountCpuMicrosPerRound: ataCpuMicrosPerRound,
    },
    evmPermit2: {
      answers: half * 2,
      cpuMicrosPerAnswer: mean(permit2A, permit2B),
      halves: [permit2A.cpuMicrosPerAnswer, permit2B.cpuMicrosPerAnswer],
    },
    node: process.version,
    loadAverageBefore: loadBefore,
    loadAverageAfter: loadavg().map((n) => Number(n.toFixed(2))),
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  console.log(JSON.stringify(await run(), null, 2));
}
