import assert from "node:assert/strict";
import { test } from "node:test";
import { parseChainRpcUrls } from "../src/chain-rpc-urls.js";
import { parseStackConfig } from "../src/stack-config.js";

test("a URL keeps every = of its query string: entries are cut at the first = only", () => {
  assert.deepEqual(
    parseChainRpcUrls(
      "eip155:1=https://eth.example/v2/abc?key=x=y&b=2,eip155:10=https://op.example/?apikey=k",
    ),
    {
      "eip155:1": ["https://eth.example/v2/abc?key=x=y&b=2"],
      "eip155:10": ["https://op.example/?apikey=k"],
    },
  );
});

test("several URLs of one chain, separated by |, keep their order of preference", () => {
  assert.deepEqual(
    parseChainRpcUrls("eip155:8453=https://a.example/?key=1|https://b.example/rpc|http://127.0.0.1:8545"),
    {
      "eip155:8453": ["https://a.example/?key=1", "https://b.example/rpc", "http://127.0.0.1:8545"],
    },
  );
});

test("a comma inside a URL stays in it; only a comma before a chain domain and = starts an entry", () => {
  assert.deepEqual(
    parseChainRpcUrls(
      "eip155:1=https://a.example/?ids=1,2,3,solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp=https://sol.example/?api-key=z",
    ),
    {
      "eip155:1": ["https://a.example/?ids=1,2,3"],
      "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp": ["https://sol.example/?api-key=z"],
    },
  );
});

test("JSON: an object of chain domain to a URL or a list of URLs", () => {
  assert.deepEqual(
    parseChainRpcUrls(
      '{"eip155:1": ["https://a.example/?key=x", "https://b.example/"], "eip155:10": "https://c.example/"}',
    ),
    { "eip155:1": ["https://a.example/?key=x", "https://b.example/"], "eip155:10": ["https://c.example/"] },
  );
});

test("wrong values are refused with the chain and the host, never the full URL with its key", () => {
  const refused = (value: string, pattern: RegExp) =>
    assert.throws(
      () => parseChainRpcUrls(value),
      (error: Error) => {
        assert.match(error.message, pattern);
        assert.doesNotMatch(error.message, /SECRET/);
        return true;
      },
    );
  refused(
    "eip155:1=ws://node.example/SECRET",
    /eip155:1 has a ws: URL at node\.example; only http and https/,
  );
  refused("eip155:1=not a url SECRET", /eip155:1 has a value that is not a URL/);
  refused(
    "eip155:1=https://a.example/?k=SECRET|https://a.example/?k=SECRET",
    /lists a URL at a\.example twice/,
  );
  refused("eip155:1=https://a/,eip155:1=https://b/", /names eip155:1 twice/);
  refused("eip155:1=", /eip155:1 has no URL/);
  refused("https://a.example/?k=SECRET", /not a chain domain/);
  refused("{not json", /not valid JSON/);
  refused('{"eip155:1": 5}', /neither a URL nor a list/);
  refused("", /empty/);
});

test("the stack config reads HUB_CHAIN_RPC_URLS through the same parser, and refuses a bad one at start", () => {
  const config = parseStackConfig({
    HUB_CHAIN_RPC_URLS: "eip155:1=https://a.example/?key=x|https://b.example/",
  });
  assert.deepEqual(config.HUB_CHAIN_RPC_URLS, {
    "eip155:1": ["https://a.example/?key=x", "https://b.example/"],
  });
  assert.throws(
    () => parseStackConfig({ HUB_CHAIN_RPC_URLS: "eip155:1=ftp://a.example/" }),
    /only http and https/,
  );
});
