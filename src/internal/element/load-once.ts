/**
 * A module loaded on first use and shared after that; one that failed to load is asked for
 * again on the next use rather than kept as failed.
 */
export function loadOnce<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () =>
    (loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    }));
}
