import type { Catalog } from "@hub/contract";

/** The catalog and its JSON, rendered once: the catalog never changes until restart. */
export interface CatalogService {
  readonly catalog: Catalog;
  readonly json: string;
}

export function createCatalogService(deps: { catalog: Catalog }): CatalogService {
  return { catalog: deps.catalog, json: JSON.stringify(deps.catalog) };
}
