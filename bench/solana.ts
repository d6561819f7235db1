// Solana stand-in benchmark: start time of the chain with its RPC server (genesis included), and the
// round trip of a wallet's SOL transfer and of an escrow deposit (solver as fee payer) through the
// JSON-RPC server with @solana/kit: getLatestBlockhash, sign, sendTransaction, getSignatureStatuses.
// `npm run bench -- solana`, or standalone: `node --import tsx bench/solana.ts`.
import { loadavg } from "node:os";
import { performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";
import { systemClock } from "@hub/clock";
import {
  address,
  appendTransactionMessageInstructions,
  assertIsFullySignedTransaction,
  createKeyPairSignerFromBytes,
  createSolanaRpc,
  createTransactionMessage,
  getBase58Encoder,
  getBase64EncodedWireTransaction,
  partiallySignTransaction,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
} from "@solana/kit";
import { getTransferSolInstruction } from "@solana-program/system";
import { findAssociatedTokenPda, TOKEN_PROGRAM_ADDRESS } from "@solana-program/token";
import { pino } from "pino";
import { compileSolanaDeposit } from "../apps/devnet/src/solana/solana-escrow.js";
import { startSolanaDevnet } from "../apps/devnet/src/solana/start-solana-devnet.js";

function summary(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (p: number) =>
    Number(sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!.toFixed(2));
  return { n: sorted.length, p50Ms: at(0.5), p95Ms: at(0.95), maxMs: at(1) };
}

export async function run(options: { starts?: number; transfers?: number } = {}): Promise<object> {
  const starts = options.starts ?? 10;
  const transfers = options.transfers ?? 200;
  const loadBefore = loadavg().map((n) => Number(n.toFixed(2)));
  const logger = pino({ level: "silent" });
  const start = () => startSolanaDevnet({ rpcPort: 0, clock: systemClock, evmChains: [], logger });

  const coldStarted = performance.now();
  const first = await start();
  const coldStartMs = performance.now() - coldStarted;
  await first.stop();
  const startMs: number[] = [];
  for (let i = 0; i < starts; i++) {
    const began = performance.now();
    const devnet = await start();
    startMs.push(performance.now() - began);
    await devnet.stop();
  }

  const devnet = await start();
  try {
    const rpc = createSolanaRpc(devnet.manifest.rpcUrl);
    const user = await createKeyPairSignerFromBytes(
      getBase58Encoder().encode(devnet.manifest.users[0]!.secretKey),
    );
    const solver = await createKeyPairSignerFromBytes(
      getBase58Encoder().encode(devnet.manifest.solvers[0]!.secretKey),
    );
    const recipient = address(devnet.manifest.users[1]!.address);
    const mint = address(devnet.manifest.tokens[0]!.mint);
    const vault = address(devnet.manifest.escrow.vaults[0]!.vault);
    const [source] = await findAssociatedTokenPda({
      owner: user.address,
      mint,
      tokenProgram: TOKEN_PROGRAM_ADDRESS,
    });

    async function confirmed(wire: string) {
      const signature = await rpc.sendTransaction(wire as never, { encoding: "base64" }).send();
      const status = (await rpc.getSignatureStatuses([signature]).send()).value[0];
      if (!status || status.err !== null) throw new Error(`transaction ${signature} did not land`);
    }

    const transferMs: number[] = [];
    for (let i = 0; i < transfers; i++) {
      const began = performance.now();
      const { value: lifetime } = await rpc.getLatestBlockhash().send();
      const message = pipe(
        createTransactionMessage({ version: 0 }),
        (m) => setTransactionMessageFeePayerSigner(user, m),
        (m) => setTransactionMessageLifetimeUsingBlockhash(lifetime, m),
        (m) =>
          appendTransactionMessageInstructions(
            [getTransferSolInstruction({ source: user, destination: recipient, amount: BigInt(1000 + i) })],
            m,
          ),
      );
      await confirmed(getBase64EncodedWireTransaction(await signTransactionMessageWithSigners(message)));
      transferMs.push(performance.now() - began);
    }

    const depositMs: number[] = [];
    for (let i = 0; i < transfers; i++) {
      const began = performance.now();
      const orderId = devnet.escrow.register({
        user: user.address,
        mint,
        amount: BigInt(1 + i),
        expires: 2_000_000_000,
        nonce: 0n,
        outputHash: `0x${"00".repeat(32)}`,
      });
      const { value: lifetime } = await rpc.getLatestBlockhash().send();
      const unsigned = compileSolanaDeposit({
        feePayer: solver.address,
        lifetime,
        user: user.address,
        source,
        mint,
        decimals: 6,
        vault,
        amount: BigInt(1 + i),
        orderId,
      });
      const signed = await partiallySignTransaction(
        [solver.keyPair],
        await partiallySignTransaction([user.keyPair], unsigned),
      );
      assertIsFullySignedTransaction(signed);
      await confirmed(getBase64EncodedWireTransaction(signed));
      depositMs.push(performance.now() - began);
    }
    return {
      coldStartMs: Number(coldStartMs.toFixed(1)),
      start: summary(startMs),
      transferRoundTrip: summary(transferMs),
      depositRoundTrip: summary(depositMs),
      loadAverageBefore: loadBefore,
      loadAverageAfter: loadavg().map((n) => Number(n.toFixed(2))),
    };
  } finally {
    await devnet.stop();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(JSON.stringify(await run(), null, 2));
  process.exit(0);
}
