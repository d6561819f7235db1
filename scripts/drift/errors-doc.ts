// docs/errors.md and packages/contract/errors.json must be what the error catalogue renders now
// (scripts/generate-contract-docs.ts).
import { existsSync, readFileSync } from "node:fs";
import { errorCatalogueJson, renderErrorsDoc } from "@hub/contract";

const renderings = [
  ["docs/errors.md", renderErrorsDoc],
  ["packages/contract/errors.json", errorCatalogueJson],
] as const;

export async function check(): Promise<string[]> {
  return renderings.flatMap(([file, render]) => {
    const path = new URL(`../../${file}`, import.meta.url).pathname;
    if (!existsSync(path)) return [`${file} is missing: run scripts/generate-contract-docs.ts`];
    return readFileSync(path, "utf8") === render()
      ? []
      : [`${file} differs from the error catalogue: run scripts/generate-contract-docs.ts`];
  });
}
