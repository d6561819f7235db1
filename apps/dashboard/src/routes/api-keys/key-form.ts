import { AdminRefusal, type CreatedApiKey, parseDurationSeconds } from "@hub/admin";
import type { DashboardContext, MemberViewer } from "../../http/dashboard-context.js";

export type KeyFormErrors = { label?: string; expires?: string };

/** The label and expiry of the create and rotate forms, with what is wrong with them. */
export function readKeyForm(form: Record<string, string>): {
  values: { label: string; expires: string };
  expiresInSeconds?: number;
  errors: KeyFormErrors;
} {
  const values = { label: form.label ?? "", expires: form.expires ?? "" };
  const errors: KeyFormErrors = {};
  if (values.label.trim() === "") errors.label = "Give the key a label, so you know later who uses it.";
  else if (values.label.trim().length > 100) errors.label = "Use at most 100 characters.";
  let expiresInSeconds: number | undefined;
  if (values.expires !== "") {
    expiresInSeconds = parseDurationSeconds(values.expires);
    if (expiresInSeconds === undefined) errors.expires = "Choose one of the listed expiries.";
  }
  return { values, errors, ...(expiresInSeconds !== undefined ? { expiresInSeconds } : {}) };
}

/** Makes the key the form asked for; a label the admin module refuses comes back as the label's error. */
export async function createKeyFromForm(
  context: DashboardContext,
  viewer: MemberViewer,
  label: string,
  expiresInSeconds: number | undefined,
): Promise<{ apiKey: CreatedApiKey } | { error: string }> {
  try {
    const { apiKey } = await context.adminFor(viewer).createKey({
      orgId: viewer.orgId,
      label,
      ...(expiresInSeconds !== undefined ? { expiresInSeconds } : {}),
    });
    return { apiKey };
  } catch (error) {
    if (error instanceof AdminRefusal && error.code === "invalid-argument") return { error: error.message };
    throw error;
  }
}
