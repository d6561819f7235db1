export type AccessErrorCode =
  | "invalid-argument"
  | "invalid-origin"
  | "organization-not-found"
  | "project-not-found"
  | "key-not-found"
  | "organization-has-project";

/** A refusal of an access-management request, with a message a person can act on. */
export class AccessError extends Error {
  override readonly name = "AccessError";
  constructor(
    readonly code: AccessErrorCode,
    message: string,
  ) {
    super(message);
  }
}
