import { HubError } from "@hub/contract";

export interface QuoteRouteRequest {
  sourceAsset: string;
  destinationAsset: string;
  amount: string;
  recipient: string;
  sourceAccount?: string | undefined;
  swapType: "exact-input" | "exact-output";
}

/** What every route states whatever the chains: the amount and how it is read. */
export interface RouteTerms {
  /** The request's amount: of the source on exact-input, of the destination on exact-output. */
  amount: bigint;
  swapType: "exact-input" | "exact-output";
  /** Whether the client sent sourceAccount. */
  sourceAccountSent: boolean;
}

export function noRoute(message: string): HubError {
  return new HubError("EIN0008", { message });
}

export function sourceAccountRequired(message: string): HubError {
  return new HubError("EIN0001", { reference: "sourceAccount", message });
}
