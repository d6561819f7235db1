import { getTransactionEncoder, type SignatureBytes } from "@solana/kit";
import type { SolverPostOrderResponse } from "../aggregator/oif-order.js";
import { describeTransactionError } from "../solana/solana-transaction-error.js";
import { openSolanaEnvelope } from "./solana-envelope.js";
import type { SolanaSourceRecord, SolanaSourceState } from "./solana-source-state.js";
import { SolverError } from "./solver-error.js";

function accepted(record: SolanaSourceRecord): SolverPostOrderResponse {
  return {
    orderId: record.quote.escrowOrder.orderId.slice(2),
    status: "received",
    message: "Signed deposit accepted; the solver adds its fee-payer signature and sends it to Solana",
    order: record.quote.payload,
  };
}

/** Takes the user's signed deposit for a live quote; a repeated submission answers the first. */
export function submitSolanaSourceOrder(
  state: SolanaSourceState,
  request: { quoteId: string; signature?: unknown },
): SolverPostOrderResponse {
  const { solana } = state.config;
  const stored = state.quotes.get(request.quoteId);
  if (!stored || state.nowSeconds() > stored.validUntil)
    throw new SolverError(400, "QUOTE_NOT_FOUND", `quote ${request.quoteId} not found or expired`);
  const key = stored.escrowOrder.orderId.slice(2);
  const existing = state.orders.get(key);
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
  const now = state.nowSeconds();
  const record: SolanaSourceRecord = {
    quote: stored,
    envelope: request.signature,
    wire,
    status: "created",
    createdAt: now,
    updatedAt: now,
  };
  state.orders.set(key, record);
  return accepted(record);
}
