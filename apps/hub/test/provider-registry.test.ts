import assert from "node:assert/strict";
import { test } from "node:test";
import {
  createProviderClients,
  devnetExternalProvider,
  devnetProvider,
  parseProvidersConfig,
  providerKinds,
} from "../src/providers/index.js";

const devnetUrl = "http://127.0.0.1:9";

test("a provider entry without kind takes the registry's first kind", () => {
  const [parsed] = parseProvidersConfig([{ id: "bare", baseUrl: devnetUrl }]);
  assert.equal(parsed?.kind, providerKinds[0].kind);
});

test("clients come by kind in the registry's order, each kind's in configuration order, disabled ones left out of enabledOf", async () => {
  const providers = createProviderClients([
    devnetExternalProvider(devnetUrl, { id: "ext-1" }),
    devnetProvider(devnetUrl, { id: "oif-1" }),
    devnetExternalProvider(devnetUrl, { id: "ext-2", enabled: false }),
    devnetProvider(devnetUrl, { id: "oif-2" }),
  ]);
  try {
    // The registry lists the OIF aggregators first: their readiness checks and metrics come first.
    assert.deepEqual(
      providers.all.map((client) => client.provider.id),
      ["oif-1", "oif-2", "ext-1", "ext-2"],
    );
    assert.deepEqual(
      providerKinds.flatMap((kind) => providers.enabledOf(kind).map((client) => client.provider.id)),
      ["oif-1", "oif-2", "ext-1"],
    );
  } finally {
    await providers.close();
  }
});

test("an order is forwarded to and read from a provider whose kind submits, enabled or not, and never an unconfigured one", async () => {
  const providers = createProviderClients([
    devnetProvider(devnetUrl, { id: "oif-on" }),
    devnetProvider(devnetUrl, { id: "oif-off", enabled: false }),
    devnetExternalProvider(devnetUrl, { id: "ext" }),
  ]);
  try {
    for (const id of ["oif-on", "oif-off"]) {
      assert.equal(
        providers.submitterOf(id),
        providers.all.find((client) => client.provider.id === id),
      );
      assert.equal(
        providers.readerOf(id),
        providers.all.find((client) => client.provider.id === id),
      );
    }
    // An external aggregator's winners complete through POST /order: nothing is forwarded to it.
    assert.equal(providers.submitterOf("ext"), undefined);
    assert.equal(providers.readerOf("ext"), undefined);
    assert.equal(providers.submitterOf("gone"), undefined);
    assert.deepEqual(
      ["oif-on", "oif-off", "ext", "gone"].map((id) => providers.stateOf(id)),
      ["enabled", "disabled", "enabled", "unconfigured"],
    );
  } finally {
    await providers.close();
  }
});
