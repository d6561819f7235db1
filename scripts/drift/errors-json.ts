// packages/contract/errors.json must be what the error catalogue renders now (scripts/generate-contract-docs.ts).
import { existsSync, readFileSync } from "node:fs";
import { errorCatalogueJson } from "@hub/contract";

const path = new URL("../../packages/contract/errors.json", import.meta.url).pathname;

export async function check(): Promise<string[]> {
  if (!existsSync(path))
    return ["packages/contract/errors.json is missing: run scripts/generate-contract-docs.ts"];
  return readFileSync(path, "utf8") === errorCatalogueJson()
    ? []
    : [
        "packages/contract/errors.json differs from the error catalogue: run scripts/generate-contract-docs.ts",
      ];
}
