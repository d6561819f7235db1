/**
 * A key's check: the organization it opens, or EPX0002 (unknown, revoked or expired); `counts` says
 * whether the lockout counts it (the spec counts unknown credentials only).
 */
export type KeyCheck =
  | { readonly ok: true; readonly keyId: string; readonly orgId: string }
  | { readonly ok: false; readonly code: "EPX0002"; readonly counts: boolean };

/** A project id's check: its organization and exact allowed origins, or EPX0009. */
export type ProjectCheck =
  | {
      readonly ok: true;
      readonly projectId: string;
      readonly orgId: string;
      readonly allowedOrigins: ReadonlySet<string>;
    }
  | { readonly ok: false; readonly code: "EPX0009" };
