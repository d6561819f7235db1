// packages/contract/openapi.yaml must be what the contract generates now (scripts/generate-contract-docs.ts).
import { existsSync, readFileSync } from "node:fs";
import { openapiYaml } from "@hub/contract/openapi-document";

const path = new URL("../../packages/contract/openapi.yaml", import.meta.url).pathname;

export async function check(): Promise<string[]> {
  if (!existsSync(path))
    return ["packages/contract/openapi.yaml is missing: run scripts/generate-contract-docs.ts"];
  return readFileSync(path, "utf8") === openapiYaml()
    ? []
    : [
        "packages/contract/openapi.yaml differs from the generated document: run scripts/generate-contract-docs.ts",
      ];
}
