import { isStorableText, type SqlExecutor } from "@hub/store";
import type { ChainFacts } from "../../status-rules/index.js";
import { readEvmOrderFacts } from "./evm-order-facts.js";
import type { FamilyFactTables } from "./family-fact-tables.js";

export async function readChainFacts(
  sql: SqlExecutor,
  families: readonly FamilyFactTables[],
  onchainOrderIds: readonly string[],
): Promise<Map<string, ChainFacts>> {
  const facts = new Map<string, ChainFacts>();
  const ids = [...new Set(onchainOrderIds.filter(isStorableText))];
  if (ids.length === 0) return facts;
  const entry = (id: string): ChainFacts => {
    let found = facts.get(id);
    if (!found) {
      found = { onchainOrderId: id, fills: [] };
      facts.set(id, found);
    }
    return found;
  };
  // Every read starts at once; the EVM facts go in first, so a family's facts only add to them.
  const steps = await Promise.all([
    readEvmOrderFacts(sql, ids),
    ...families.map((family) => family.readFacts(sql, ids)),
  ]);
  for (const step of steps) step(entry);
  return facts;
}
