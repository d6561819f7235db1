import { errorCatalogue, errorCodes } from "../error-catalogue.js";
import { errorClientActions } from "../error-client-actions.js";
import { markdownCell } from "../errors-doc.js";
import type { OperationId } from "../route-table.js";

const TAGS = [
  { name: "Catalog", description: "The deployment's chains and assets, and this document." },
  {
    name: "Quotes",
    description: "Quote a swap or bridge: one round, a preview of offers, or a prepared quote.",
  },
  { name: "Orders", description: "Submit a winner and follow the order by polling." },
  {
    name: "On-chain views",
    description: "What the service read on chain: the money facts to show. Not scoped to an organization.",
  },
] as const;

const ERRORS_TAG = "Error codes";

export const OPERATION_TAGS: Record<OperationId, (typeof TAGS)[number]["name"]> = {
  getCatalog: "Catalog",
  getOpenapi: "Catalog",
  createQuote: "Quotes",
  previewQuote: "Quotes",
  prepareQuote: "Quotes",
  submitOpenForOrder: "Orders",
  createOrder: "Orders",
  getOrderStatus: "Orders",
  getHubStatus: "Orders",
  listOrders: "Orders",
  getOnchainFill: "On-chain views",
  getOrderByTransaction: "On-chain views",
  getOnchainRefund: "On-chain views",
  getOnchainOrder: "On-chain views",
};

/** Every code of the catalogue with its status, block, meaning and what a client does (EPX0004 included, which no path names). */
function errorCatalogueMarkdown(): string {
  const rows = errorCodes.map((code) => {
    const spec = errorCatalogue[code];
    return `| ${code} | ${spec.status} | ${spec.block} | ${markdownCell(spec.summary)} | ${markdownCell(errorClientActions[code])} |`;
  });
  const intro =
    "Every refusal is `{success: false, request_id?, message?, errors: [{error_code, error_reference?, error_params?}]}`; branch on `errors[0].error_code`. The same table as JSON: `packages/contract/errors.json`, served by the dashboard at `/docs/errors.json`.";
  return `${intro}\n\n| Code | Status | Block | Meaning | What a client does |\n|---|---|---|---|---|\n${rows.join("\n")}`;
}

/** The operations' tags, then the error codes as a tag of their own that names no operation. */
export function documentTags(): unknown[] {
  return [...TAGS, { name: ERRORS_TAG, description: errorCatalogueMarkdown(), "x-traitTag": true }];
}
