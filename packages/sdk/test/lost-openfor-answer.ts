import assert from "node:assert/strict";
import { createHubClient, hubOrderIdOf, type SubmitStep, type Wallet, type Winner } from "../src/index.js";
import { type Answer, fail, ok, scriptedServer } from "./scripted-server.js";

/**
 * Submits `winner` through a lost openFor answer (the connection dropped, then not-found twice, a 504,
 * then found) and asserts the recovery: the order read by hubOrderId, the identical body re-posted,
 * the lost-answer steps. `ack` is the final answer for the order's hubOrderId.
 */
export async function submitThroughLostOpenForAnswer(
  winner: Winner,
  wallet: Wallet,
  ack: (hubOrderId: string) => Answer,
): Promise<void> {
  const id = await hubOrderIdOf(winner.quoteId);
  const server = await scriptedServer([
    () => ({ drop: true }),
    () => fail("EIN0009"),
    () => fail("EIN0009"),
    () => fail("EPX0052", { status: 504 }),
    () => ok({ state: "created" }),
    () => ack(id),
  ]);
  try {
    const client = createHubClient({
      baseUrl: server.baseUrl,
      apiKey: `svc_sk_${"b".repeat(43)}`,
      subject: "s",
      retry: { baseDelayMs: 10 },
    });
    const steps: SubmitStep[] = [];
    const order = await client.submit(winner, wallet, { onStep: (s) => steps.push(s) });
    assert.equal(order.kind === "openfor" && order.hubOrderId, id);
    assert.deepEqual(server.calls(), [
      "POST /order/openfor",
      `GET /order/${id}/status`,
      `GET /order/${id}/status`,
      "POST /order/openfor",
      `GET /order/${id}/status`,
      "POST /order/openfor",
    ]);
    const posts = server.received.filter((r) => r.method === "POST").map((r) => r.body);
    assert.ok(
      posts.every((body) => body === posts[0]),
      "the identical body every time",
    );
    assert.deepEqual(
      steps
        .filter((s) => s.step === "lost-answer")
        .map((s) => s.step === "lost-answer" && [s.error.code, s.orderFound]),
      [
        ["ESDK_NETWORK", false],
        ["EPX0052", true],
      ],
    );
  } finally {
    await server.close();
  }
}
