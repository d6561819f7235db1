import { errorCatalogue, errorCodes } from "./error-catalogue.js";
import { errorClientActions } from "./error-client-actions.js";

/** Text made safe for one cell of a Markdown table. */
export function markdownCell(text: string): string {
  return text.replaceAll("|", "\\|").replaceAll("\n", " ");
}

/** docs/errors.md, rendered from the catalogue: one row per code. */
export function renderErrorsDoc(): string {
  const rows = errorCodes.map((code) => {
    const spec = errorCatalogue[code];
    return `| \`${code}\` | ${spec.status} | ${spec.origin} | ${spec.block} | ${markdownCell(spec.summary)} | ${markdownCell(errorClientActions[code])} |`;
  });
  return `# Error codes

Generated from \`packages/contract/src/error-catalogue.ts\` by \`scripts/generate-contract-docs.ts\`; do not edit by hand.

Every refusal comes in the envelope \`{ success: false, request_id?, message?, errors: [{ error_code, error_reference?, error_params? }] }\`.
The hub answers 400 for each of its own codes, availability and busy included; the gateway answers its own (\`EPX\`) with a real status.
Branch on the code, never on the status. \`message\` is present on terminal codes only.

Blocks: **terminal**: change the request, or fix the credential or origin; no retry. **availability**: retry later.
**busy**: back off; EIN0080, EPX0080 and EPX0082 carry the back-off in \`error_params[0]\` (ms), EPX0081 carries seconds only in \`Retry-After\`.

| Code | HTTP status | Origin | Block | Meaning | What a client does |
|---|---|---|---|---|---|
${rows.join("\n")}
`;
}

/**
 * packages/contract/errors.json, rendered from the catalogue (also served by the dashboard at
 * /docs/errors.json): every code with its status, origin, block, meaning and what a client does.
 */
export function errorCatalogueJson(): string {
  const codes = Object.fromEntries(
    errorCodes.map((code) => [code, { ...errorCatalogue[code], clientAction: errorClientActions[code] }]),
  );
  const document = {
    description:
      "The error catalogue of the Intent swap and bridge hub API. Branch on errors[0].error_code, never on the HTTP status. Blocks: terminal (change the request, no retry), availability (retry later), busy (back off: error_params[0] ms on EIN0080, EPX0080, EPX0082; Retry-After seconds on EPX0081).",
    codes,
  };
  return `${JSON.stringify(document, null, 2)}\n`;
}
