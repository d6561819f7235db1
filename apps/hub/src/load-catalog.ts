import { readFile } from "node:fs/promises";
import { type Catalog, catalogSchema } from "@hub/contract";

/**
 * Reads and validates the catalog file once, at start. Throws one error naming the file and every
 * problem: unreadable file, malformed JSON, a field of the wrong shape, or keys that contradict each other.
 */
export async function loadCatalog(path: string): Promise<Catalog> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    throw new Error(`catalog file ${path} cannot be read: ${(error as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new Error(`catalog file ${path} is not JSON: ${(error as Error).message}`);
  }
  const parsed = catalogSchema.safeParse(json);
  if (!parsed.success) {
    const lines = parsed.error.issues.map(
      (issue) => `  ${issue.path.join(".") || "(root)"}: ${issue.message}`,
    );
    throw new Error(`catalog file ${path} is invalid:\n${lines.join("\n")}`);
  }
  const problems = catalogConsistencyProblems(parsed.data);
  if (problems.length > 0) {
    throw new Error(`catalog file ${path} is inconsistent:\n${problems.map((p) => `  ${p}`).join("\n")}`);
  }
  return parsed.data;
}

/** Cross-field rules the schema cannot express; see docs/catalog.md. */
export function catalogConsistencyProblems(catalog: Catalog): string[] {
  const problems: string[] = [];
  const domains = new Set<string>();
  catalog.families.evm.forEach((chain, i) => {
    const at = `families.evm.${i}`;
    if (chain.chainDomain !== `eip155:${chain.chainId}`) {
      problems.push(`${at}.chainDomain: ${chain.chainDomain} is not eip155:${chain.chainId}`);
    }
    if (domains.has(chain.chainDomain))
      problems.push(`${at}.chainDomain: ${chain.chainDomain} appears twice`);
    domains.add(chain.chainDomain);
    const prefix = `${chain.chainDomain}/`;
    if (!chain.nativeKey.startsWith(prefix)) {
      problems.push(`${at}.nativeKey: ${chain.nativeKey} is not an asset of ${chain.chainDomain}`);
    }
    const keys = new Set<string>();
    chain.assets.forEach((asset, j) => {
      if (!asset.key.startsWith(prefix)) {
        problems.push(`${at}.assets.${j}.key: ${asset.key} is not an asset of ${chain.chainDomain}`);
      }
      if (asset.address !== undefined && asset.key !== `${prefix}erc20:${asset.address}`) {
        problems.push(`${at}.assets.${j}.key: ${asset.key} does not name its address ${asset.address}`);
      }
      if (keys.has(asset.key)) problems.push(`${at}.assets.${j}.key: ${asset.key} appears twice`);
      keys.add(asset.key);
    });
    if (chain.wrappedKey !== undefined && !keys.has(chain.wrappedKey)) {
      problems.push(`${at}.wrappedKey: ${chain.wrappedKey} is not among the chain's assets`);
    }
  });
  return problems;
}
