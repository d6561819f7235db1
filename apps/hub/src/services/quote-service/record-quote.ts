import { newOpaqueId, type QuoteWinner } from "@hub/contract";
import type { QuoteCandidate } from "../../quotes/quote-candidate.js";
import type { NewQuote } from "../../store/quote-store.js";
import type { Caller } from "../caller.js";
import type { QuoteServiceDeps } from "./quote-service-deps.js";

/**
 * A round's winner as issued to the caller: its ids, its lifetime (about 30 s, never past the
 * upstream's validity) and the quotes row that holds it with its template.
 */
export function recordQuote(
  deps: Pick<QuoteServiceDeps, "clock" | "replicaId" | "quoteLifetimeMs">,
  winner: QuoteCandidate,
  caller: Caller,
  fingerprint: string,
  preparationId: string | null,
): { row: NewQuote; disclosed: QuoteWinner } {
  const { clock, replicaId } = deps;
  const issuedAtMs = clock.now();
  // About 30 s, never past the upstream's own validity.
  const expiresAtMs = Math.min(issuedAtMs + deps.quoteLifetimeMs, winner.validUntilMs);
  const identity = {
    quoteRequestId: newOpaqueId("qr", replicaId),
    quoteId: newOpaqueId("q", replicaId),
    expiresAtMs,
  };
  const { winner: disclosed, template } = winner.disclose(identity);
  const registrableUntilMs =
    winner.registrableForMs === undefined ? expiresAtMs : issuedAtMs + winner.registrableForMs;
  const row: NewQuote = {
    quoteId: identity.quoteId,
    quoteRequestId: identity.quoteRequestId,
    orgId: caller.organization,
    subject: caller.subject,
    replicaId,
    lane: winner.lane,
    providerId: winner.providerId,
    preparationId,
    requestFingerprint: fingerprint,
    winner: disclosed,
    template,
    onchainOrderId: winner.onchainOrderId ?? null,
    issuedAt: new Date(issuedAtMs),
    expiresAt: new Date(expiresAtMs),
    registrableUntil: new Date(registrableUntilMs),
  };
  return { row, disclosed };
}
