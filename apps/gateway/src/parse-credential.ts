import { isApiKeyFormat, isProjectIdFormat } from "@hub/contract";

/** What the credential headers say before any lookup; refusals are values, and `counts` says whether the lockout counts it. */
export type ParsedCredential =
  | { readonly ok: true; readonly kind: "key"; readonly key: string }
  | { readonly ok: true; readonly kind: "project"; readonly projectId: string }
  | { readonly ok: false; readonly code: "EPX0001" | "EPX0007" | "EPX0008"; readonly counts: boolean };

type HeaderValue = string | string[] | undefined;

function single(value: HeaderValue): string | undefined {
  if (Array.isArray(value)) return value.length === 1 ? value[0] : value.join(", ");
  return value;
}

/**
 * Reads exactly one credential from the request headers (spec Authentication). An empty header is
 * no credential. A header sent twice arrives joined with ", " and so fails its format.
 */
export function parseCredential(headers: Readonly<Record<string, HeaderValue>>): ParsedCredential {
  const key = single(headers["x-api-key"]) || undefined;
  const projectId = single(headers["x-project-id"]) || undefined;
  if (key !== undefined && projectId !== undefined) return { ok: false, code: "EPX0007", counts: false };
  if (projectId !== undefined) {
    return isProjectIdFormat(projectId)
      ? { ok: true, kind: "project", projectId }
      : { ok: false, code: "EPX0008", counts: true };
  }
  if (key !== undefined && isApiKeyFormat(key)) return { ok: true, kind: "key", key };
  return { ok: false, code: "EPX0001", counts: true };
}
