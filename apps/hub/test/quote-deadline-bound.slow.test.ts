import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { type CatalogChain, quoteWinnerSchema } from "@hub/contract";
import { devnetProvider } from "../src/providers/index.js";
import { assertRefusal } from "./hub-fixture.js";
import { dataOf, disposeQuoteDatabases, type QuoteHub, startQuoteHub } from "./quote-hub.js";
import { type HubTestDevnet, startHubTestDevnet } from "./upstream-devnet.js";

const DAY = 86_400;

// The devnet's solvers quote far deadlines through their fault knobs; the hub's vetting discards an
// answer whose fillDeadline or expires lies past its bound (24 h by default), like any other failed check.
describe("upstream deadlines past the hub's bound are discarded at vetting", () => {
  let devnet: HubTestDevnet;
  let hub: QuoteHub;
  let lenient: QuoteHub;
  let request: Record<string, string>;

  before(async () => {
    devnet = await startHubTestDevnet();
    const [origin, destination] = devnet.catalog.families.evm as [CatalogChain, CatalogChain];
    const tkn = (chain: CatalogChain) => chain.assets.find((a) => a.symbol === "TKN")!.key;
    const user = devnet.manifest.users[0]!.address;
    request = {
      sourceAsset: tkn(origin),
      destinationAsset: tkn(destination),
      amount: "5000000",
      recipient: user,
      sourceAccount: user,
    };
    hub = await startQuoteHub({ catalog: devnet.catalog, providers: [devnetProvider(devnet.url)] });
    lenient = await startQuoteHub({
      catalog: devnet.catalog,
      providers: [devnetProvider(devnet.url)],
      config: { quoteMaxDeadlineMs: 3 * DAY * 1000 },
    });
  });
  after(async () => {
    await hub?.stop();
    await lenient?.stop();
    await devnet?.stop();
    await disposeQuoteDatabases();
  });

  const rejections = (on: QuoteHub) =>
    on.metric("hub_quote_vetting_rejections_total", { provider: "devnet", reason: "deadline-too-far" });

  test("one solver's fillDeadline two days ahead: its answer is discarded and the other solver wins", async (t) => {
    t.after(() => devnet.control("DELETE", "/solvers/alpha/faults"));
    await devnet.control("POST", "/solvers/alpha/faults", { fillDeadlineSeconds: 2 * DAY });
    const before = await rejections(hub);
    const winner = quoteWinnerSchema.parse(dataOf(await hub.post("/v1/quote", request)));
    assert.equal(winner.provider, "devnet.beta");
    assert.equal(await rejections(hub), before + 1);
    assert.ok(
      hub.logLines.some(
        (line) =>
          line.includes('"reason":"deadline-too-far"') &&
          line.includes("fillDeadline") &&
          line.includes("past the 86400 s bound"),
      ),
      "the discard is logged with its reason and the deadline",
    );
  });

  test("every solver's expires two days ahead: no answer passes, EIN0008; a 3-day bound takes them", async (t) => {
    t.after(async () => {
      for (const solver of ["alpha", "beta"]) await devnet.control("DELETE", `/solvers/${solver}/faults`);
    });
    for (const solver of ["alpha", "beta"])
      await devnet.control("POST", `/solvers/${solver}/faults`, { expiresSeconds: 2 * DAY });
    const before = await rejections(hub);
    assertRefusal((await hub.post("/v1/quote", request)).answer, "EIN0008");
    assert.equal(await rejections(hub), before + 2);
    assert.ok(
      hub.logLines.some((line) => line.includes('"reason":"deadline-too-far"') && line.includes("expires")),
    );

    const winner = quoteWinnerSchema.parse(dataOf(await lenient.post("/v1/quote", request)));
    assert.equal(
      winner.provider,
      "devnet.alpha",
      "the cheaper solver, once its deadlines are within the bound",
    );
    assert.equal(await rejections(lenient), 0);
  });

  test("deadlines within the bound pass: the devnet's own 300 s and 600 s", async () => {
    const before = await rejections(hub);
    const winner = quoteWinnerSchema.parse(dataOf(await hub.post("/v1/quote", request)));
    assert.equal(winner.provider, "devnet.alpha");
    assert.equal(await rejections(hub), before);
  });
});
