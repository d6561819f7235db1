import { randomUUID } from "node:crypto";
import { type DevnetChain, type DevnetManifest, devnetErc20Abi, outputSettlerAbi } from "@hub/chain";
import type { Clock } from "@hub/clock";
import { getTransactionEncoder, type SignatureBytes } from "@solana/kit";
import type { Hex } from "viem";
import type { OrderStatus, SolverOrderResponse, SolverPostOrderResponse } from "../aggregator/oif-order.js";
import type { SolverQuote } from "../aggregator/oif-quote.js";
import type { GetQuoteRequest } from "../aggregator/oif-quote-request.js";
import type { FaultKnobs } from "../faults/fault-knobs.js";
import { describeTransactionError } from "../solana/solana-transaction-error.js";
import { errorText } from "./error-text.js";
import { evmFillOutcome } from "./evm-fill-outcome.js";
import { orderMoves, terminal } from "./order-moves.js";
import { reportedStatus } from "./reported-status.js";
import { openSolanaEnvelope } from "./solana-envelope.js";
import {
  buildSolanaSourceQuote,
  type SolanaSourceDeps,
  type SolanaSourceQuote,
  solanaFillerData,
  svmEscrowOrderType,
} from "./solana-source-quote.js";
import type { SolverChainClient } from "./solver-chain-clients.js";
import { SolverError } from "./solver-error.js";

export interface SolanaSourceConfig {
  id: string;
  name?: string;
  manifest: DevnetManifest;
  solana: SolanaSourceDeps;
  spreadBps: number;
  etaSeconds: number;
  quoteValiditySeconds: number;
  fillDeadlineSeconds: number;
  expiresSeconds: number;
  clock: Clock;
  faults?: FaultKnobs;
  /** The solver's EVM clients: the destination's fill is sent with the solver's EVM key. */
  client(chainId: number): SolverChainClient;
}

/** The Solana → EVM side of a solver: its quotes, its orders and their work loop step. */
export interface SolanaSourceOrders {
  quote(request: GetQuoteRequest): Promise<SolverQuote>;
  /** Whether `quoteId` is one of this side's live quotes. */
  owns(quoteId: string): boolean;
  submit(request: { quoteId: string; signature?: unknown }): SolverPostOrderResponse;
  /** The order's status read, or undefined when the id is not a Solana-source order of this solver. */
  get(orderId: string): SolverOrderResponse | undefined;
  /** Moves every open order as far as it can go now; stops early once `running()` is false. */
  tick(running: () => boolean, onError: (orderId: string, error: unknown) => void): Promise<void>;
}

type StoredQuote = SolanaSourceQuote & { preview: SolverQuote["preview"] };

interface SolanaSourceRecord {
  quote: StoredQuote;
  envelope: string;
  /** The fully signed deposit transaction. */
  wire: Uint8Array;
  status: OrderStatus;
  createdAt: number;
  updatedAt: number;
  /** The deposit's signature once sent: this lane's open transaction. */
  openTx?: string;
  fillTx?: Hex;
  fillTimestamp?: number;
  /** The escrow's release to the solver. */
  claimTx?: string;
}

/** A memo as the chain's history shows it. */
const memoField = (text: string) => `[${Buffer.byteLength(text)}] ${text}`;

/**
 * Quotes `oif-svm-escrow-v0` orders and carries them out: the user's signed deposit gets the solver's
 * fee-payer signature and is sent to the Solana chain; once it landed the solver fills the output on
 * the EVM destination with its Solana key as the fill's solver, and the committee's release of the
 * vault to that key settles the order.
 */
export function createSolanaSourceOrders(config: SolanaSourceConfig): SolanaSourceOrders {
  const { solana, manifest } = config;
  const quotes = new Map<string, StoredQuote>();
  const orders = new Map<string, SolanaSourceRecord>();
  const nowSeconds = () => Math.floor(config.clock.now() / 1000);
  const { move, fail } = orderMoves(nowSeconds);
  const fillerData = solanaFillerData(solana.keypair);

  async function blockSeconds(chain: DevnetChain): Promise<number> {
    return Number((await config.client(chain.chainId).publicClient.getBlock()).timestamp);
  }

  async function quote(request: GetQuoteRequest): Promise<SolverQuote> {
    const now = nowSeconds();
    for (const [id, stale] of quotes) if (stale.validUntil < now) quotes.delete(id);
    const built = await buildSolanaSourceQuote({
      request,
      manifest,
      solana,
      spreadBps: config.spreadBps,
      quoteId: randomUUID(),
      nowSeconds: now,
      quoteValiditySeconds: config.quoteValiditySeconds,
      fillDeadlineSeconds: config.fillDeadlineSeconds,
      expiresSeconds: config.expiresSeconds,
      destinationSeconds: blockSeconds,
      outputLiquidity: (chain, token) =>
        config.client(chain.chainId).publicClient.readContract({
          address: token,
          abi: devnetErc20Abi,
          functionName: "balanceOf",
          args: [config.client(chain.chainId).walletClient.account.address],
        }),
    });
    const { intent } = request;
    const input = intent.inputs[0]!;
    const output = intent.outputs[0]!;
    const preview = {
      inputs: [
        {
          user: input.user.toLowerCase(),
          asset: input.asset.toLowerCase(),
          amount: built.escrowOrder.amount.toString(),
        },
      ],
      outputs: [
        {
          receiver: output.receiver.toLowerCase(),
          asset: output.asset.toLowerCase(),
          amount: built.output.amount.toString(),
        },
      ],
    };
    quotes.set(built.quoteId, { ...built, preview });
    return {
      order: { type: svmEscrowOrderType, payload: built.payload },
      validUntil: built.validUntil,
      eta: config.etaSeconds,
      quoteId: built.quoteId,
      provider: config.name ?? config.id,
      failureHandling: intent.failureHandling?.[0] ?? "refund-automatic",
      partialFill: false,
      preview,
    };
  }

  function accepted(record: SolanaSourceRecord): SolverPostOrderResponse {
    return {
      orderId: record.quote.escrowOrder.orderId.slice(2),
      status: "received",
      message: "Signed deposit accepted; the solver adds its fee-payer signature and sends it to Solana",
      order: record.quote.payload,
    };
  }

  function submit(request: { quoteId: string; signature?: unknown }): SolverPostOrderResponse {
    const stored = quotes.get(request.quoteId);
    if (!stored || nowSeconds() > stored.validUntil)
      throw new SolverError(400, "QUOTE_NOT_FOUND", `quote ${request.quoteId} not found or expired`);
    const key = stored.escrowOrder.orderId.slice(2);
    const existing = orders.get(key);
    if (existing) return accepted(existing);
    if (typeof request.signature !== "string" || request.signature === "")
      throw new SolverError(
        422,
        "SOLVER_REJECTED",
        "a Solana deposit needs the user's signature envelope (97 bytes, standard base64)",
      );
    const messageBytes = Uint8Array.from(stored.deposit.messageBytes);
    const opened = openSolanaEnvelope(request.signature, stored.sender, messageBytes);
    if ("problem" in opened) throw new SolverError(422, "SOLVER_REJECTED", opened.problem);
    const wire = Uint8Array.from(
      getTransactionEncoder().encode({
        ...stored.deposit,
        signatures: {
          ...stored.deposit.signatures,
          [solana.keypair.address]: solana.keypair.sign(messageBytes) as SignatureBytes,
          [stored.sender]: opened.signature as SignatureBytes,
        },
      }),
    );
    const simulation = solana.chain.simulate(wire, { sigVerify: true });
    if (simulation.err !== null)
      throw new SolverError(
        422,
        "SOLVER_REJECTED",
        `the deposit would fail: ${describeTransactionError(simulation.err)}`,
      );
    const now = nowSeconds();
    const record: SolanaSourceRecord = {
      quote: stored,
      envelope: request.signature,
      wire,
      status: "created",
      createdAt: now,
      updatedAt: now,
    };
    orders.set(key, record);
    return accepted(record);
  }

  function get(orderId: string): SolverOrderResponse | undefined {
    const record = orders.get(orderId.toLowerCase().replace(/^0x/, ""));
    if (!record) return undefined;
    const reported = reportedStatus(record.status, config.faults?.get(config.id) ?? {});
    if (reported.tookReportOnce) config.faults?.takeReportOnce(config.id);
    const { quote: stored } = record;
    const fillStatus =
      typeof record.status === "object" && record.status.failed[0] === "Fill" ? "failed" : undefined;
    return {
      id: stored.escrowOrder.orderId,
      status: reported.status,
      createdAt: record.createdAt,
      updatedAt: record.updatedAt,
      quoteId: stored.quoteId,
      inputAmounts: stored.preview.inputs.map((i) => ({ asset: i.asset, amount: i.amount! })),
      outputAmounts: stored.preview.outputs.map((o) => ({ asset: o.asset, amount: o.amount! })),
      settlement: {
        type: "escrow",
        data: {
          escrow_order: stored.payload.escrowOrder,
          fill_deadline: stored.fillDeadline,
          signature: record.envelope,
          open_transaction: record.openTx ?? null,
          release_transaction: record.claimTx ?? null,
          expires: stored.escrowOrder.expires,
        },
      },
      fillTransaction:
        record.fillTx && !reported.hideFill
          ? {
              hash: record.fillTx,
              status: fillStatus ?? (record.fillTimestamp !== undefined ? "executed" : "pending"),
              timestamp: record.fillTimestamp ?? record.updatedAt,
            }
          : null,
    };
  }

  // The escrow's settlement of the order, read from the vault's history since the deposit.
  async function vaultSettlement(
    record: SolanaSourceRecord,
  ): Promise<{ kind: "release" | "refund"; signature: string } | undefined> {
    const { orderId, mint } = record.quote.escrowOrder;
    const vault = await solana.escrow.vault(mint);
    for (const entry of solana.chain.signaturesForAddress(vault, { until: record.openTx! })) {
      if (entry.err !== null || entry.transaction.accountKeys[0] !== solana.escrow.settler) continue;
      if (entry.memo === memoField(`release:${orderId}`))
        return { kind: "release", signature: entry.signature };
      if (entry.memo === memoField(`refund:${orderId}`))
        return { kind: "refund", signature: entry.signature };
    }
    return undefined;
  }

  // One move of the order's state machine; true when it moved and the next move may follow at once.
  async function advance(record: SolanaSourceRecord): Promise<boolean> {
    const { quote: stored } = record;
    const destination = config.client(stored.destination.chainId);
    const failAt = config.faults?.get(config.id).failAt;
    switch (record.status) {
      case "created": {
        if (failAt === "Prepare") return fail(record, "Prepare", "solver failed before sending the deposit");
        try {
          record.openTx = solana.chain.send(record.wire);
        } catch (error) {
          return fail(record, "Prepare", `the deposit was refused: ${errorText(error)}`);
        }
        return move(record, "pending");
      }
      case "pending": {
        const landed = solana.chain.transaction(record.openTx!);
        if (!landed) {
          if (solana.chain.isBlockhashValid(stored.deposit.lifetimeConstraint.blockhash)) return false;
          return fail(
            record,
            "Prepare",
            `the deposit ${record.openTx} did not land before its blockhash expired`,
          );
        }
        if (landed.err !== null)
          return fail(
            record,
            "Prepare",
            `the deposit ${record.openTx} failed: ${describeTransactionError(landed.err)}`,
          );
        return move(record, "executing");
      }
      case "executing": {
        if (!record.fillTx) {
          if (failAt === "Fill") return fail(record, "Fill", "solver failed before filling the output");
          if ((await vaultSettlement(record))?.kind === "refund") return move(record, "refunded");
          if ((await blockSeconds(stored.destination)) > stored.fillDeadline)
            return fail(record, "Fill", "the fill deadline passed before the fill");
          try {
            record.fillTx = await destination.walletClient.writeContract({
              address: stored.destination.contracts.outputSettler,
              abi: outputSettlerAbi,
              functionName: "fill",
              args: [stored.escrowOrder.orderId, stored.output, stored.fillDeadline, fillerData],
            });
          } catch (error) {
            return fail(record, "Fill", `fill failed: ${errorText(error)}`);
          }
          record.updatedAt = nowSeconds();
          return true;
        }
        const outcome = await evmFillOutcome(destination, record.fillTx, stored.escrowOrder.orderId);
        if (outcome.state === "pending") return false;
        if (outcome.state === "failed") return fail(record, "Fill", outcome.reason);
        record.fillTimestamp = outcome.fillTimestamp;
        return move(record, "executed");
      }
      case "executed":
        if (failAt === "PostFill") return fail(record, "PostFill", "solver failed after the fill");
        return move(record, "settling");
      case "settling": {
        const settled = await vaultSettlement(record);
        if (settled?.kind === "refund") return move(record, "refunded");
        if (settled?.kind !== "release") return false;
        record.claimTx = settled.signature;
        return move(record, "settled");
      }
      case "settled":
        // The committee's release already paid the solver: these knobs only stop the solver's reports.
        if (failAt === "PreClaim") return fail(record, "PreClaim", "solver failed before claiming");
        if (failAt === "Claim") return fail(record, "Claim", "solver failed to claim");
        return move(record, "finalized");
      default:
        return false;
    }
  }

  return {
    quote,
    owns: (quoteId) => quotes.has(quoteId),
    submit,
    get,
    async tick(running, onError) {
      for (const record of orders.values()) {
        if (!running()) return;
        try {
          for (let moves = 0; moves < 8 && !terminal(record.status) && (await advance(record)); moves++);
        } catch (error) {
          onError(record.quote.escrowOrder.orderId, error);
        }
      }
    },
  };
}
