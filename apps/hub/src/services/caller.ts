/** Who asks: the organization the gateway set from the credential and the subject the caller sent. */
export interface Caller {
  readonly organization: string;
  readonly subject: string;
}
