/**
 * HUB_CHAIN_RPC_URLS: the JSON-RPC URLs of each chain, in preference order. Two spellings:
 *
 * - `eip155:1=https://a.example/v2/KEY?x=1|https://b.example/,eip155:10=https://c.example/`: entries
 *   are cut at a comma followed by a chain domain and `=`; each entry at its FIRST `=` only, so a URL
 *   keeps every `=` of its query string; several URLs of one chain are separated by `|` (a character a
 *   URL carries only escaped, as %7C).
 * - JSON, when the value starts with `{`: `{"eip155:1": ["https://a/?key=x", "https://b/"], ...}` (a
 *   string for one URL).
 *
 * Errors name the chain and the URL's host, never a full URL (it may carry a provider's key).
 */
export type ChainRpcUrls = Record<string, string[]>;

const CHAIN_DOMAIN = /^[-a-z0-9]{3,8}:[-_a-zA-Z0-9]{1,32}$/;
const ENTRY_START = /,(?=[-a-z0-9]{3,8}:[-_a-zA-Z0-9]{1,32}=)/;

function hostOf(url: string): string {
  try {
    return new URL(url).host || "no host";
  } catch {
    return "not a URL";
  }
}

function checkUrl(chainDomain: string, url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(`HUB_CHAIN_RPC_URLS: ${chainDomain} has a value that is not a URL`);
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    throw new Error(
      `HUB_CHAIN_RPC_URLS: ${chainDomain} has a ${parsed.protocol} URL at ${hostOf(url)}; only http and https are read`,
    );
  }
  return url;
}

function checkDomain(chainDomain: string): string {
  if (!CHAIN_DOMAIN.test(chainDomain)) {
    throw new Error(
      `HUB_CHAIN_RPC_URLS: ${JSON.stringify(chainDomain.slice(0, 80))} is not a chain domain (CAIP-2, like eip155:1)`,
    );
  }
  return chainDomain;
}

export function parseChainRpcUrls(value: string): ChainRpcUrls {
  const text = value.trim();
  const out: ChainRpcUrls = {};
  const add = (chainDomain: string, urls: string[]) => {
    checkDomain(chainDomain);
    if (out[chainDomain]) throw new Error(`HUB_CHAIN_RPC_URLS names ${chainDomain} twice`);
    if (urls.length === 0) throw new Error(`HUB_CHAIN_RPC_URLS: ${chainDomain} has no URL`);
    const seen = new Set<string>();
    for (const url of urls) {
      checkUrl(chainDomain, url);
      if (seen.has(url))
        throw new Error(`HUB_CHAIN_RPC_URLS: ${chainDomain} lists a URL at ${hostOf(url)} twice`);
      seen.add(url);
    }
    out[chainDomain] = urls;
  };
  if (text.startsWith("{")) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      throw new Error(`HUB_CHAIN_RPC_URLS is not valid JSON: ${(error as Error).message}`);
    }
    if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
      throw new Error("HUB_CHAIN_RPC_URLS as JSON is an object of chain domain to URL or list of URLs");
    }
    for (const [chainDomain, urls] of Object.entries(parsed)) {
      const list = typeof urls === "string" ? [urls] : urls;
      if (!Array.isArray(list) || !list.every((url): url is string => typeof url === "string")) {
        throw new Error(`HUB_CHAIN_RPC_URLS: ${chainDomain} is neither a URL nor a list of URLs`);
      }
      add(chainDomain, list);
    }
    return out;
  }
  if (text === "") throw new Error("HUB_CHAIN_RPC_URLS is empty");
  for (const entry of text.split(ENTRY_START)) {
    const at = entry.indexOf("=");
    if (at <= 0) throw new Error("HUB_CHAIN_RPC_URLS: each entry is chainDomain=url[|url...]");
    const chainDomain = entry.slice(0, at).trim();
    add(
      chainDomain,
      entry
        .slice(at + 1)
        .split("|")
        .map((url) => url.trim())
        .filter((url) => url !== ""),
    );
  }
  return out;
}
