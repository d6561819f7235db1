import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { loadCatalog } from "../src/index.js";
import { tempFile, testCatalog } from "./hub-fixture.js";

function withChain(change: (chain: Record<string, unknown>) => void): string {
  const catalog = testCatalog();
  change(catalog.families.evm[0] as unknown as Record<string, unknown>);
  return JSON.stringify(catalog);
}

describe("loadCatalog reads and validates the catalog file once", () => {
  test("a valid catalog file loads with its defaults filled in", async () => {
    const catalog = testCatalog();
    delete (catalog.families.evm[0]!.assets[0] as { authorizations?: unknown }).authorizations;
    const loaded = await loadCatalog(tempFile("valid.json", JSON.stringify(catalog)));
    assert.equal(loaded.families.evm[0]?.chainDomain, "eip155:31337");
    assert.deepEqual(loaded.families.evm[0]?.assets[0]?.authorizations, ["permit2"]);
    assert.deepEqual(loaded.families.solana, []);
  });

  test("a missing file is refused naming the file", async () => {
    await assert.rejects(
      loadCatalog("/nonexistent/catalog.json"),
      /catalog file \/nonexistent\/catalog.json cannot be read/,
    );
  });

  test("a file that is not JSON is refused", async () => {
    await assert.rejects(loadCatalog(tempFile("bad.json", "{ families: ")), /is not JSON/);
  });

  test("a field of the wrong shape is refused with its path", async () => {
    const path = tempFile(
      "shape.json",
      withChain((chain) => {
        chain.chainId = "31337";
        chain.permit2 = "0xABC";
      }),
    );
    await assert.rejects(loadCatalog(path), (error: Error) => {
      assert.match(error.message, /families\.evm\.0\.chainId/);
      assert.match(error.message, /families\.evm\.0\.permit2/);
      return true;
    });
  });

  test("keys that contradict each other are refused, every problem listed", async () => {
    const path = tempFile(
      "inconsistent.json",
      withChain((chain) => {
        chain.chainDomain = "eip155:1";
        chain.wrappedKey = "eip155:31337/erc20:0x00000000000000000000000000000000000000ff";
        const assets = chain.assets as { key: string }[];
        assets.push({ ...(assets[0] as { key: string }) });
      }),
    );
    await assert.rejects(loadCatalog(path), (error: Error) => {
      assert.match(error.message, /chainDomain: eip155:1 is not eip155:31337/);
      assert.match(error.message, /wrappedKey: .* is not among the chain's assets/);
      assert.match(error.message, /appears twice/);
      return true;
    });
  });

  test("an asset key that does not name the asset's address is refused", async () => {
    const path = tempFile(
      "address.json",
      withChain((chain) => {
        const assets = chain.assets as { key: string }[];
        assets[0]!.key = "eip155:31337/erc20:0x00000000000000000000000000000000000000bb";
      }),
    );
    await assert.rejects(loadCatalog(path), /does not name its address/);
  });
});
