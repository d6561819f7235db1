import { apiKeyDisplayPrefix, generateApiKey, hashApiKey } from "@hub/contract";
import type { AccessAdminDeps, ApiKeyInfo, CreatedApiKey } from "../access-admin.js";
import { adminLimits } from "../admin-limits.js";
import { AdminRefusal } from "../admin-refusal.js";
import { newResourceId } from "../resource-id.js";
import { apiKeyInfo, organizationNotFound } from "./access-records.js";

/** A key's label: trimmed, 1 to 100 characters, no control characters. */
export function normaliseKeyLabel(input: string): string {
  const label = input.trim();
  if (label.length < 1 || label.length > adminLimits.maxKeyLabelLength) {
    throw new AdminRefusal(
      "invalid-argument",
      `a key's label must be 1 to ${adminLimits.maxKeyLabelLength} characters`,
    );
  }
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  if (/[\u0000-\u001f\u007f]/.test(label)) {
    throw new AdminRefusal("invalid-argument", "a key's label cannot hold control characters");
  }
  return label;
}

export async function createKey(
  { store, clock }: AccessAdminDeps,
  { orgId, expiresInSeconds, label }: { orgId: string; expiresInSeconds?: number; label?: string },
): Promise<{ apiKey: CreatedApiKey }> {
  const keyLabel = label === undefined ? null : normaliseKeyLabel(label);
  if (
    expiresInSeconds !== undefined &&
    (!Number.isInteger(expiresInSeconds) ||
      expiresInSeconds < 1 ||
      expiresInSeconds > adminLimits.maxKeyLifetimeSeconds)
  ) {
    throw new AdminRefusal(
      "invalid-argument",
      `a key's lifetime must be a whole number of seconds from 1 to ${adminLimits.maxKeyLifetimeSeconds} (10 years)`,
    );
  }
  const key = generateApiKey();
  const createdAt = new Date(clock.now());
  const record = await store.insertApiKey({
    keyId: newResourceId("key_"),
    orgId,
    label: keyLabel,
    keyHash: hashApiKey(key),
    displayPrefix: apiKeyDisplayPrefix(key),
    createdAt,
    expiresAt:
      expiresInSeconds === undefined ? null : new Date(createdAt.getTime() + expiresInSeconds * 1000),
  });
  if (!record) throw organizationNotFound(orgId);
  const apiKey: CreatedApiKey = {
    keyId: record.keyId,
    orgId: record.orgId,
    label: record.label,
    key,
    displayPrefix: record.displayPrefix,
    createdAt: record.createdAt.toISOString(),
    expiresAt: record.expiresAt?.toISOString() ?? null,
  };
  return { apiKey };
}

export async function revokeKey(
  { store, clock }: AccessAdminDeps,
  { keyId, orgId }: { keyId: string; orgId?: string },
): Promise<{ apiKey: ApiKeyInfo }> {
  const notFound = () => new AdminRefusal("key-not-found", `key ${keyId} does not exist`);
  // A key never changes organization, so the check before the revoke cannot go stale.
  if (orgId !== undefined && (await store.getApiKey(keyId))?.orgId !== orgId) throw notFound();
  const record = await store.revokeApiKey(keyId, new Date(clock.now()));
  if (!record) throw notFound();
  return { apiKey: apiKeyInfo(record, new Date(clock.now())) };
}

/** Disables or enables a key: a revoked key is refused, a key already so is returned unchanged. */
export async function setKeyDisabled(
  { store, clock }: AccessAdminDeps,
  { keyId, disabled, orgId }: { keyId: string; disabled: boolean; orgId?: string },
): Promise<{ apiKey: ApiKeyInfo; changed: boolean }> {
  const now = new Date(clock.now());
  const found = await store.getApiKey(keyId);
  if (!found || (orgId !== undefined && found.orgId !== orgId))
    throw new AdminRefusal("key-not-found", `key ${keyId} does not exist`);
  if (found.revokedAt !== null)
    throw new AdminRefusal(
      "key-revoked",
      `key ${keyId} is revoked; a revoked key can be neither disabled nor enabled`,
    );
  if ((found.disabledAt !== null) === disabled) return { apiKey: apiKeyInfo(found, now), changed: false };
  const record = await store.setApiKeyDisabled(keyId, disabled ? now : null);
  if (!record) throw new AdminRefusal("key-not-found", `key ${keyId} does not exist`);
  return { apiKey: apiKeyInfo(record, now), changed: true };
}

export async function listKeys(
  { store, clock }: AccessAdminDeps,
  { orgId }: { orgId: string },
): Promise<{ orgId: string; apiKeys: ApiKeyInfo[] }> {
  const [organization, keys] = await Promise.all([store.getOrganization(orgId), store.listApiKeys(orgId)]);
  if (!organization) throw organizationNotFound(orgId);
  return { orgId, apiKeys: keys.map((record) => apiKeyInfo(record, new Date(clock.now()))) };
}
