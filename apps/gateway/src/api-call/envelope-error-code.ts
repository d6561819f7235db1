import { errorCatalogue } from "@hub/contract";

/** The first error code of a hub envelope; "unknown" when the body names none. */
export function envelopeErrorCode(body: Buffer): string {
  try {
    const code = (JSON.parse(body.toString("utf8")) as { errors?: { error_code?: unknown }[] }).errors?.[0]
      ?.error_code;
    return typeof code === "string" && code in errorCatalogue ? code : "unknown";
  } catch {
    return "unknown";
  }
}
