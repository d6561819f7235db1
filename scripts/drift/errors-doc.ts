// docs/errors.md must be what the error catalogue renders now (scripts/generate-contract-docs.ts).
import { existsSync, readFileSync } from "node:fs";
import { renderErrorsDoc } from "@hub/contract";

const path = new URL("../../docs/errors.md", import.meta.url).pathname;

export async function check(): Promise<string[]> {
  if (!existsSync(path)) return ["docs/errors.md is missing: run scripts/generate-contract-docs.ts"];
  return readFileSync(path, "utf8") === renderErrorsDoc()
    ? []
    : ["docs/errors.md differs from the error catalogue: run scripts/generate-contract-docs.ts"];
}
