/**
 * A module (or anything) fetched when first asked for, not with the page:
 * the first call starts the load, every later call shares it. A load that
 * fails is forgotten, so the next call tries again (a chunk that could not be
 * fetched while offline loads once the page is back online).
 */
export function onFirstUse<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () => {
    loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    });
    return loading;
  };
}

/** Why a load (or what followed it) failed, in words (a chunk that could not be fetched names its file). */
export function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
