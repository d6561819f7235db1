import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  type CatalogChain,
  type OpenForAck,
  openForAckSchema,
  type QuoteWinner,
  quoteWinnerSchema,
} from "@hub/contract";
import { pollUntil } from "@hub/test-support";
import type { Answer } from "./hub-process.js";
import { signWinner } from "./submission-stack.js";
import type { UpstreamProxy } from "./submission-upstream-proxy.js";
import type { HubTestDevnet } from "./upstream-devnet.js";

// The load of the crash and replica tests: signed orders on the devnet, submitted while something
// dies, then re-posted by the spec's lost-answer rule.

/** One POST with a JSON body as a client with its key makes it. */
export type Post = (path: string, json: unknown) => Promise<Answer>;

export interface SignedOrder {
  winner: QuoteWinner;
  body: { quoteRequestId: string; quoteId: string; signature: string };
}

/**
 * The environment of a `hub start` without the devnet against this devnet's catalog and an upstream
 * (the counting proxy in front of its aggregator), on free ports; writes the providers file into dir.
 */
export function devnetUpstreamEnv(
  devnet: HubTestDevnet,
  upstreamUrl: string,
  dir: string,
): NodeJS.ProcessEnv {
  const providersFile = join(dir, "providers.json");
  writeFileSync(
    providersFile,
    JSON.stringify([
      {
        id: "devnet",
        kind: "oif-aggregator",
        dialect: "oif-aggregator",
        baseUrl: upstreamUrl,
        timeoutMs: 8000,
      },
    ]),
  );
  return {
    ...process.env,
    HUB_DEVNET: "0",
    HUB_CATALOG_FILE: devnet.files.catalogFile,
    HUB_PROVIDERS_FILE: providersFile,
    GATEWAY_PORT: "0",
    HUB_PORT: "0",
    DASHBOARD_PORT: "0",
    METRICS_PORT: "0",
    LOG_LEVEL: "warn",
  };
}

/** `count` USDC quotes between the devnet's two EVM chains, ten at a time, each signed by a devnet user. */
export async function quoteSignedOrders(
  devnet: HubTestDevnet,
  count: number,
  post: Post,
  firstAmount: number,
): Promise<SignedOrder[]> {
  const [origin, destination] = devnet.catalog.families.evm as [CatalogChain, CatalogChain];
  const usdc = (chain: CatalogChain) => chain.assets.find((asset) => asset.symbol === "USDC")!.key;
  const orders: SignedOrder[] = [];
  for (let batch = 0; batch < count; batch += 10) {
    await Promise.all(
      Array.from({ length: Math.min(10, count - batch) }, async (_, i) => {
        const user = devnet.manifest.users[(batch + i) % devnet.manifest.users.length]!;
        const quoted = await post("/quote", {
          sourceAsset: usdc(origin),
          destinationAsset: usdc(destination),
          amount: String(firstAmount + batch + i),
          recipient: user.address,
          sourceAccount: user.address,
        });
        assert.equal(quoted.status, 200, JSON.stringify(quoted.body));
        const winner = quoteWinnerSchema.parse(quoted.body.data);
        orders.push({
          winner,
          body: {
            quoteRequestId: winner.quoteRequestId,
            quoteId: winner.quoteId,
            signature: await signWinner(user, winner),
          },
        });
      }),
    );
  }
  return orders;
}

/**
 * Posts every order, 15 ms apart, while the aggregator answers 400 ms late (so a kill finds some acked
 * and the rest forwarding), and runs `kill` once `killAfter` are acked. Every ack a client got goes
 * into `acked` by quote id as it arrives; resolves once every post is answered or broken, with the
 * number acked at the kill.
 */
export async function submitAndKill(
  devnet: HubTestDevnet,
  orders: readonly SignedOrder[],
  post: Post,
  acked: Map<string, OpenForAck>,
  killAfter: number,
  kill: () => Promise<void>,
): Promise<number> {
  await devnet.control("POST", "/aggregator/faults", { latencyMs: 400 });
  const inFlight = orders.map(async ({ winner, body }, i) => {
    await new Promise((resolve) => setTimeout(resolve, i * 15));
    try {
      const answer = await post("/order/openfor", body);
      if (answer.body?.success === true) acked.set(winner.quoteId, openForAckSchema.parse(answer.body.data));
    } catch {
      // The process died under this call.
    }
  });
  await pollUntil("some submissions are acked", () => acked.size >= killAfter, {
    timeoutMs: 60_000,
    intervalMs: 20,
  });
  await kill();
  const ackedAtKill = acked.size;
  await Promise.all(inFlight);
  await devnet.control("DELETE", "/aggregator/faults");
  assert.ok(ackedAtKill < orders.length, "the kill landed before every submission was acked");
  return ackedAtKill;
}

/**
 * The client's rule for a lost answer: re-post every identical body. An ack given before comes back
 * unchanged; every other re-post answers an ack or EIN0052. Returns the count of each outcome.
 */
export async function repostEvery(
  orders: readonly SignedOrder[],
  acked: ReadonlyMap<string, OpenForAck>,
  post: Post,
): Promise<Record<string, number>> {
  const codes: Record<string, number> = {};
  await Promise.all(
    orders.map(async ({ winner, body }) => {
      const answer = await post("/order/openfor", body);
      let outcome: string;
      if (answer.body?.success === true) {
        const ack = openForAckSchema.parse(answer.body.data);
        const before = acked.get(winner.quoteId);
        if (before !== undefined) assert.deepEqual(ack, before, "an ack given before is the ack on re-post");
        outcome = "ack";
      } else {
        outcome = answer.body?.errors?.[0]?.error_code ?? `HTTP ${answer.status}`;
        assert.ok(!acked.has(winner.quoteId), `an acked quote answered ${outcome}`);
      }
      codes[outcome] = (codes[outcome] ?? 0) + 1;
    }),
  );
  assert.deepEqual(
    Object.keys(codes).filter((code) => code !== "ack" && code !== "EIN0052"),
    [],
    "every re-post answers the ack or EIN0052",
  );
  return codes;
}

/** No upstream quote reached the aggregator twice. */
export function assertForwardedAtMostOnce(upstream: UpstreamProxy): void {
  for (const [upstreamQuoteId, count] of upstream.forwards) {
    assert.ok(count <= 1, `upstream quote ${upstreamQuoteId} was forwarded ${count} times`);
  }
}
