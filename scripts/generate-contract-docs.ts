// Writes the contract's generated files: packages/contract/openapi.yaml, packages/contract/errors.json and docs/errors.md.
import { writeFileSync } from "node:fs";
import { errorCatalogueJson, renderErrorsDoc } from "@hub/contract";
import { openapiYaml } from "@hub/contract/openapi-document";

const root = new URL("..", import.meta.url).pathname;
writeFileSync(`${root}packages/contract/openapi.yaml`, openapiYaml());
writeFileSync(`${root}docs/errors.md`, renderErrorsDoc());
writeFileSync(`${root}packages/contract/errors.json`, errorCatalogueJson());
console.log("wrote packages/contract/openapi.yaml, packages/contract/errors.json and docs/errors.md");
