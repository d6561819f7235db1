import { createHash } from "node:crypto";
import type { SqlClient } from "@hub/store";
import {
  type OpenFlowTemplate,
  openFlowTemplateFingerprint,
} from "../src/providers/external-aggregator/open-flow-template.js";
import { createQuoteStore } from "../src/store/quote-store.js";

const hex = (text: string) => createHash("sha256").update(text).digest("hex");

export interface SeededQuote {
  quoteId: string;
  template: OpenFlowTemplate;
  expiresAt: Date;
}

export interface OpenFlowQuoteOptions {
  organization: string;
  subject: string;
  providerId?: string;
  lane?: OpenFlowTemplate["lane"];
  /** Lowercase 0x address; null: the quote was requested without sourceAccount. */
  sourceAccount: `0x${string}` | null;
  signIntent?: string | null;
  issuedAt: Date;
  lifetimeMs?: number;
  deposit?: Partial<NonNullable<OpenFlowTemplate["deposit"]>>;
  source?: { chainDomain: string; chainId: number };
  destination?: { chainDomain: string; chainId: number };
}

let counter = 0;

/** An external winner's template as the quote source stores it, fingerprinted. */
export function openFlowTemplate(
  options: Omit<OpenFlowQuoteOptions, "organization" | "subject" | "issuedAt">,
  tag: string,
): OpenFlowTemplate {
  const lane = options.lane ?? "open-flow";
  const source = options.source ?? { chainDomain: "eip155:31337", chainId: 31337 };
  const destination = options.destination ?? { chainDomain: "eip155:31338", chainId: 31338 };
  const recipient = "0x00000000000000000000000000000000000000bb";
  const token = "0x00000000000000000000000000000000000000aa";
  const body: Omit<OpenFlowTemplate, "fingerprint"> = {
    version: 1,
    kind: "external",
    lane,
    providerId: options.providerId ?? "ext",
    solverId: "solver-x",
    upstreamQuoteId: `up-${tag}`,
    quoteResponse: { id: `up-${tag}` },
    signableHash: `0x${hex(`signable:${tag}`)}`,
    ...(options.signIntent === null
      ? {}
      : { signIntent: options.signIntent ?? `Register open-flow order ${tag}\nref 0x${hex(`ref:${tag}`)}` }),
    ...(options.sourceAccount === null ? {} : { sourceAccount: options.sourceAccount }),
    recipient,
    source: { ...source, asset: `${source.chainDomain}/erc20:${token}`, amount: "1000000" },
    destination: { ...destination, asset: `${destination.chainDomain}/erc20:${token}`, amount: "990000" },
    ...(lane === "open-flow"
      ? {
          deposit: {
            bridge: "0x00000000000000000000000000000000000000b1",
            token,
            amount: "1000000",
            destinationChainId: destination.chainId,
            recipient,
            ref: `0x${hex(`ref:${tag}`)}`,
            ...options.deposit,
          },
        }
      : {}),
  };
  return { ...body, fingerprint: openFlowTemplateFingerprint(body) };
}

/** Stores an external winner through the quote store, as the quote round does. */
export async function seedOpenFlowQuote(sql: SqlClient, options: OpenFlowQuoteOptions): Promise<SeededQuote> {
  counter += 1;
  const tag = `${process.pid}-${counter}-${options.issuedAt.getTime()}`;
  const quoteId = `q_r1_of${tag.replace(/[^0-9a-z]/g, "")}`;
  const template = openFlowTemplate(options, tag);
  const expiresAt = new Date(options.issuedAt.getTime() + (options.lifetimeMs ?? 30_000));
  await createQuoteStore(sql).insert({
    quoteId,
    quoteRequestId: `qr_${quoteId}`,
    orgId: options.organization,
    subject: options.subject,
    replicaId: "r1",
    lane: template.lane,
    providerId: template.providerId,
    preparationId: null,
    requestFingerprint: hex(`request:${tag}`),
    winner: { quoteId, disclosure: { signableHash: template.signableHash } },
    template: template as unknown as Record<string, unknown>,
    onchainOrderId: null,
    issuedAt: options.issuedAt,
    expiresAt,
    registrableUntil: expiresAt,
  });
  return { quoteId, template, expiresAt };
}

/** An OIF-lane (or proxy-lane) quote row: its template is not an external winner's. */
export async function seedOifQuote(
  sql: SqlClient,
  options: { organization: string; subject: string; lane: string; issuedAt: Date },
): Promise<string> {
  counter += 1;
  const quoteId = `q_r1_oif${process.pid}n${counter}`;
  const expiresAt = new Date(options.issuedAt.getTime() + 30_000);
  await createQuoteStore(sql).insert({
    quoteId,
    quoteRequestId: `qr_${quoteId}`,
    orgId: options.organization,
    subject: options.subject,
    replicaId: "r1",
    lane: options.lane,
    providerId: "oif",
    preparationId: null,
    requestFingerprint: hex(`request:${quoteId}`),
    winner: { quoteId },
    template: { version: 1, providerId: "oif", lane: options.lane, quoteResponse: {} },
    onchainOrderId: null,
    issuedAt: options.issuedAt,
    expiresAt,
    registrableUntil: expiresAt,
  });
  return quoteId;
}
