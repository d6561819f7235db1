import { catalogSchema } from "../catalog.js";
import type { OperationContract } from "../operation-contract.js";
import { operationErrorCodes } from "../operation-error-codes.js";

/** The catalog's response data. */
export const getCatalogResponseData = catalogSchema.meta({
  id: "Catalog",
  description: "The deployment's chains and assets, grouped by chain family.",
});

/** Every code GET /catalog can answer. */
export const getCatalogErrorCodes = operationErrorCodes("getCatalog", []);

/** GET /catalog. */
export const getCatalogOperation: OperationContract = {
  operationId: "getCatalog",
  summary: "The deployment's chains and assets",
  description:
    "Build asset and chain pickers from it. The catalog is rebuilt only on restart: fetch once and cache. Open to a project id, so pickers can render before any sign-in. `native`, `nativeKey`, `swapRouter` and `wrappedKey` decide what a chain accepts as a source; `userProxy` and `inputSettlers` change when the hub is redeployed.",
  responseData: getCatalogResponseData,
  errorCodes: getCatalogErrorCodes,
};
