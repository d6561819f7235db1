// The floor round: what a POST /quote round cannot avoid, run in the quotes benchmark's process against its
// store (PGlite or PostgreSQL), on the answers recorded for the 64 level, so the round's CPU reads as a
// ratio to it. Included, each through the hub's own code or library, so it costs what the round pays:
// - parse: the request's bytes and the round's four upstream answers (2 providers x 2 lanes, the very
//   text the canned providers send) decoded as UTF-8 and JSON.parse'd (the upstream client's parseJson);
// - hash: each offer's EIP-712 digest, once, with the hub's typed-data hashers (type hashes, domain
//   separators and repeated structs kept as vetting keeps them), the order id an EIP-3009 nonce must
//   equal (keccak of the order), the request's fingerprint and the winner's signableHash;
// - insert: one quotes row with fresh ids through the hub's quote store (its statement, its grouping: 64
//   rounds in flight end in one turn, one 64-row statement; the levels report the rows they grouped);
// - serialise: the winner the hub discloses from these answers, to JSON once and into the answer's bytes.
// Excluded, as what a round spends above its floor: vetting's checks and the typed data it rebuilds,
// ranking, building the disclosure, validation, admission, limits, metrics and logs; and the transport
// (the in-process call, four upstream requests written and their answers framed off sockets), which the
// gateway benchmark holds to its own floor (bare node:http, a plain forwarder).
import {
  type HashableTypedData,
  orderIdentifier,
  type StandardOrder,
  type TypedDataHasher,
} from "@hub/chain";
import { canonicalSha256, newOpaqueId, signableHash } from "@hub/contract";
import type { SqlExecutor } from "@hub/store";
import { PrerenderedJson, successAnswer } from "../apps/hub/src/http/answer.js";
import { laneTable, type OifLane } from "../apps/hub/src/lanes/lane-table.js";
import {
  eip3009Hasher,
  permit2Hasher,
} from "../apps/hub/src/providers/oif-aggregator/expected-typed-data-types.js";
import { oifCandidate } from "../apps/hub/src/providers/oif-aggregator/oif-candidate.js";
import { vetOifQuote } from "../apps/hub/src/providers/oif-aggregator/vet-oif-quote.js";
import type { QuoteCandidate } from "../apps/hub/src/quotes/quote-candidate.js";
import { compareQuotes } from "../apps/hub/src/quotes/rank-quotes.js";
import { isEvmSourceRoute, type QuoteRoute } from "../apps/hub/src/quotes/resolve-quote-route.js";
import { recordQuote } from "../apps/hub/src/services/quote-service/record-quote.js";
import { createQuoteStore, type NewQuote } from "../apps/hub/src/store/quote-store.js";
import { parseJson } from "../apps/hub/src/upstream/upstream-http.js";
import { profiled } from "./cpu-profile.js";

export interface FloorRoundInputs {
  sql: SqlExecutor;
  route: QuoteRoute;
  /** The POST /v1/quote body's bytes. */
  payload: Buffer;
  /** Each lane's product's recorded answer text, as the canned providers send it. */
  answers: ReadonlyMap<string, string>;
  providerIds: readonly string[];
  replicaId: string;
  caller: { organization: string; subject: string };
  quoteLifetimeMs: number;
  rounds: number;
  /** Rounds in flight at once (the level's concurrency): the insert's grouping follows it. */
  concurrency: number;
  /** The process's CPU while idle, taken off as the levels take it off. */
  idleCpuMsPerMs: number;
}

/** One upstream call of the round: its answer's bytes and how its offers are hashed. */
interface FloorCall {
  bytes: Buffer;
  hasher: TypedDataHasher;
  /** On the EIP-3009 lane, each offer's order (rebuilt once, outside the loop): its id is hashed per round. */
  orders: (StandardOrder | undefined)[];
}

type OfferPayload = { order: { payload: HashableTypedData } };

const round2 = (ms: number) => Math.round(ms * 1000) / 1000;

/** Process CPU in ms over `work`, less the idle rate over its wall time, per round. */
async function cpuMsPerRound(rounds: number, idleCpuMsPerMs: number, work: () => Promise<void> | void) {
  const started = performance.now();
  const before = process.cpuUsage();
  await work();
  const used = process.cpuUsage(before);
  const wallMs = performance.now() - started;
  return ((used.user + used.system) / 1000 - idleCpuMsPerMs * wallMs) / rounds;
}

/** The floor round's CPU per round, whole and by part, on `inputs`' answers and store. */
export async function measureFloorRound(inputs: FloorRoundInputs) {
  const { route, rounds, concurrency } = inputs;
  if (!isEvmSourceRoute(route)) throw new Error("the floor round is built for an EVM source route");
  const source = route.source.chain;
  const escrow = source.inputSettlers.escrow as `0x${string}`;
  const request = JSON.parse(inputs.payload.toString("utf8")) as unknown;

  // The round's calls in the hub's order, and its winner as the hub would disclose it (outside the loop).
  const calls: FloorCall[] = [];
  const candidates: QuoteCandidate[] = [];
  const nowMs = Date.now();
  for (const providerId of inputs.providerIds) {
    for (const lane of route.lanes as OifLane[]) {
      const text = inputs.answers.get(laneTable[lane].oif.product);
      if (text === undefined) throw new Error(`no recorded answer for ${lane}`);
      const eip3009 = laneTable[lane].oif.scheme === "eip3009";
      const call: FloorCall = {
        bytes: Buffer.from(text, "utf8"),
        hasher: eip3009 ? eip3009Hasher : permit2Hasher,
        orders: [],
      };
      for (const raw of (JSON.parse(text) as { quotes: OfferPayload[] }).quotes) {
        const vetted = vetOifQuote(raw, { providerId, route, askedLane: lane, nowMs });
        if (!vetted.ok || vetted.quote.lane === "oif-escrow-nonevm") {
          throw new Error(`a recorded answer did not vet: ${vetted.ok ? "non-EVM lane" : vetted.detail}`);
        }
        // The floor hashes the offer as received: it must come to the digest vetting found.
        if (call.hasher.hash(raw.order.payload) !== vetted.quote.typedDataHash) {
          throw new Error("the floor's digest differs from vetting's");
        }
        call.orders.push(eip3009 ? vetted.quote.order : undefined);
        candidates.push(oifCandidate(vetted.quote, route));
      }
      calls.push(call);
    }
  }
  const best = candidates.sort((a, b) => compareQuotes(a, b, route.swapType))[0];
  if (best === undefined) throw new Error("the recorded answers hold no offer");
  const { row, disclosed } = recordQuote(
    {
      clock: { now: () => Date.now() },
      replicaId: inputs.replicaId,
      quoteLifetimeMs: inputs.quoteLifetimeMs,
    },
    best,
    inputs.caller,
    canonicalSha256(request),
    null,
  );
  const quoteStore = createQuoteStore(inputs.sql);
  const requestId = newOpaqueId("req", inputs.replicaId);

  type Parsed = { call: FloorCall; answer: { quotes: OfferPayload[] } }[];
  const parse = (): Parsed => {
    JSON.parse(inputs.payload.toString("utf8"));
    return calls.map((call) => {
      const parsed = parseJson(call.bytes.toString("utf8"));
      if (!parsed.ok) throw new Error(parsed.cause);
      return { call, answer: parsed.value as { quotes: OfferPayload[] } };
    });
  };
  const parsedOnce = parse();
  const hash = (parsed: Parsed) => {
    let digests = 0;
    for (const { call, answer } of parsed) {
      answer.quotes.forEach((offer, j) => {
        call.hasher.hash(offer.order.payload);
        const order = call.orders[j];
        if (order !== undefined) orderIdentifier(order, source.chainId, escrow);
        digests += 1;
      });
    }
    canonicalSha256(request);
    signableHash(disclosed.disclosure.signablePayload);
    return digests;
  };
  const serialise = () => JSON.stringify(disclosed);
  const answer = (winnerJson: string) => successAnswer(new PrerenderedJson(winnerJson), requestId);
  const winnerJson = serialise();
  const newRow = (json: string): NewQuote => ({
    ...row,
    quoteId: newOpaqueId("q", inputs.replicaId),
    quoteRequestId: newOpaqueId("qr", inputs.replicaId),
    winnerJson: json,
  });

  /** `count` rounds, `concurrency` at a time, each running `round`. */
  const inFlight = async (count: number, round: () => Promise<void>) => {
    let next = 0;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < count) {
          next += 1;
          await round();
        }
      }),
    );
  };
  const whole = async () => {
    hash(parse());
    const json = serialise();
    await quoteStore.insert(newRow(json));
    answer(json);
  };
  const insertOnly = () => quoteStore.insert(newRow(winnerJson));

  await inFlight(3 * concurrency, whole);
  const syncLoop = (work: () => unknown) => () => {
    for (let i = 0; i < rounds; i += 1) work();
  };
  const idle = inputs.idleCpuMsPerMs;
  const hubCpuMsPerRound = await cpuMsPerRound(rounds, idle, () =>
    profiled("quotes-floor", () => inFlight(rounds, whole)),
  );
  const parseMs = await cpuMsPerRound(rounds, idle, syncLoop(parse));
  const hashMs = await cpuMsPerRound(
    rounds,
    idle,
    syncLoop(() => hash(parsedOnce)),
  );
  const insertMs = await cpuMsPerRound(rounds, idle, () => inFlight(rounds, insertOnly));
  const serialiseMs = await cpuMsPerRound(
    rounds,
    idle,
    syncLoop(() => answer(serialise())),
  );
  return {
    what: "CPU per round of what a quote round cannot avoid: its answers parsed, offers hashed once, one row inserted, one answer serialised (bench/quotes-floor.ts)",
    hubCpuMsPerRound: round2(hubCpuMsPerRound),
    parts: {
      parseMs: round2(parseMs),
      hashMs: round2(hashMs),
      insertMs: round2(insertMs),
      serialiseMs: round2(serialiseMs),
    },
    rounds,
    concurrency,
    upstreamAnswerBytes: calls.reduce((sum, call) => sum + call.bytes.length, 0),
    offersHashed: hash(parsedOnce),
    answerBytes: Buffer.byteLength(winnerJson),
  };
}
