import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { parse } from "yaml";
import { errorCatalogue, errorClientActions, errorCodes, renderErrorsDoc } from "../src/index.js";
import { openapiDocument } from "../src/openapi-document.js";

const root = new URL("../../../", import.meta.url).pathname;

function codesInDoc(markdown: string): string[] {
  return [...markdown.matchAll(/^\| `([A-Z]{3}\d{4})` \|/gm)].map((m) => m[1] as string);
}

test("docs/errors.md lists exactly the catalogue's codes, in catalogue order", () => {
  const committed = readFileSync(`${root}docs/errors.md`, "utf8");
  assert.deepEqual(codesInDoc(committed), errorCodes);
});

test("docs/errors.md is what the catalogue renders now", () => {
  assert.equal(readFileSync(`${root}docs/errors.md`, "utf8"), renderErrorsDoc());
});

test("each docs/errors.md row carries the catalogue's status, origin and block", () => {
  const committed = readFileSync(`${root}docs/errors.md`, "utf8");
  for (const code of errorCodes) {
    const { status, origin, block } = errorCatalogue[code];
    assert.match(committed, new RegExp(`^\\| \`${code}\` \\| ${status} \\| ${origin} \\| ${block} \\|`, "m"));
  }
});

test("the OpenAPI error_code enum is exactly the catalogue, in the generated and the committed document", () => {
  const generated = openapiDocument() as { components: { schemas: { ErrorCode: { enum: string[] } } } };
  assert.deepEqual(generated.components.schemas.ErrorCode.enum, errorCodes);
  const committed = parse(readFileSync(`${root}packages/contract/openapi.yaml`, "utf8"));
  assert.deepEqual(committed.components.schemas.ErrorCode.enum, errorCodes);
});

test("every code has a client action", () => {
  for (const code of errorCodes) assert.ok(errorClientActions[code].length > 0, code);
});

test("hub and framework codes answer 400; gateway codes answer their real status", () => {
  for (const code of errorCodes) {
    const { origin, status } = errorCatalogue[code];
    if (origin === "gateway") assert.ok(status >= 400 && status < 600, code);
    else assert.equal(status, 400, code);
  }
});
