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

/**
 * How the browsers (Chromium, Firefox, Safari) and Vite's preload say that a chunk, a stylesheet
 * or a fetch got no answer: their words name the asset's URL, which tells a reader nothing.
 */
const NOT_FETCHED =
  /failed to fetch|error loading dynamically imported module|importing a module script failed|unable to preload css|networkerror|^load failed/i;

/** What a user reads when the page could not fetch what it asked for. */
export const NOT_FETCHED_REASON = 'the network or the server did not answer';

/** What the error itself says, for an engineer (a chunk that could not be fetched names its file). */
export function rawReasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Why a load (or what followed it) failed, in a plain sentence's words: a fetch that got no answer is said as such. */
export function reasonOf(error: unknown): string {
  const raw = rawReasonOf(error);
  return NOT_FETCHED.test(raw) ? NOT_FETCHED_REASON : raw;
}
