/** The OpenAPI document, read once at start; it never changes until restart. */
export interface OpenapiDocument {
  /** The YAML bytes; throws when the deployment has no document (answered EIN0049 and logged). */
  yaml(): Buffer;
}

export function createOpenapiDocument(deps: { yaml: Buffer | undefined; path: string }): OpenapiDocument {
  return {
    yaml() {
      if (deps.yaml === undefined) throw new Error(`the OpenAPI document ${deps.path} was missing at start`);
      return deps.yaml;
    },
  };
}
