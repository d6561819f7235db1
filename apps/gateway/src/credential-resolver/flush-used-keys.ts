import type { CredentialResolverState } from "./credential-resolver-state.js";

/** Writes the key ids used since the last write, in one batch; a failed write keeps them for the next. */
export async function flushUsedKeys(state: CredentialResolverState): Promise<void> {
  if (state.usedKeyIds.size === 0) return;
  const batch = state.usedKeyIds;
  state.usedKeyIds = new Set();
  try {
    await state.store.markKeysUsed([...batch], new Date(state.clock.now()));
  } catch (error) {
    state.logger.warn(
      { err: error, keys: batch.size },
      "could not mark keys used; retrying with the next batch",
    );
    for (const id of batch) state.usedKeyIds.add(id);
  }
}
