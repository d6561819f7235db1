import type { ErrorDetail } from "./envelope.js";
import type { ErrorCode } from "./error-catalogue.js";

/** The one error class services throw for an expected refusal; the formatter renders it. */
export class HubError extends Error {
  readonly code: ErrorCode;
  readonly reference: string | undefined;
  readonly params: readonly string[] | undefined;
  /** A message meant for the caller; when absent the catalogue's summary is used. */
  readonly publicMessage: string | undefined;

  constructor(code: ErrorCode, detail: ErrorDetail = {}) {
    super(detail.message ?? code);
    this.name = "HubError";
    this.code = code;
    this.reference = detail.reference;
    this.params = detail.params;
    this.publicMessage = detail.message;
  }

  get detail(): ErrorDetail {
    const detail: ErrorDetail = {};
    if (this.reference) detail.reference = this.reference;
    if (this.params) detail.params = this.params;
    if (this.publicMessage) detail.message = this.publicMessage;
    return detail;
  }
}
