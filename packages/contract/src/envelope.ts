import { carriesMessage, type ErrorCode, errorCatalogue } from "./error-catalogue.js";

/** One error entry of the envelope. */
export interface ErrorEntry {
  error_code: ErrorCode;
  error_reference?: string;
  error_params?: string[];
}

/** The envelope every JSON answer is wrapped in. */
export interface Envelope<T = unknown> {
  success: boolean;
  data?: T;
  request_id?: string;
  message?: string;
  errors?: ErrorEntry[];
}

/** What a refusal carries besides its code. */
export interface ErrorDetail {
  reference?: string;
  params?: readonly string[];
  message?: string;
}

/** A success envelope; request_id is omitted when empty. */
export function successEnvelope<T>(data: T, requestId: string | undefined): Envelope<T> {
  const envelope: Envelope<T> = { success: true, data };
  if (requestId) envelope.request_id = requestId;
  return envelope;
}

/** A failure envelope with exactly one error entry; message only on terminal codes. */
export function errorEnvelope(
  code: ErrorCode,
  requestId: string | undefined,
  detail: ErrorDetail = {},
): Envelope<never> {
  const entry: ErrorEntry = { error_code: code };
  if (detail.reference) entry.error_reference = detail.reference;
  if (detail.params && detail.params.length > 0) entry.error_params = [...detail.params];
  const envelope: Envelope<never> = { success: false };
  if (requestId) envelope.request_id = requestId;
  if (carriesMessage(code)) envelope.message = detail.message ?? errorCatalogue[code].summary;
  envelope.errors = [entry];
  return envelope;
}
