const tails = new Map<string, Promise<unknown>>();

/**
 * Runs `task` after every task queued before it under the same key has settled. Concurrent
 * `git worktree add`s in one repository race: one can read another's half-written metadata
 * (`failed to read .git/worktrees/<id>/commondir`), so the bridge changes a repository's list
 * of worktrees one change at a time. (Other processes' races are left to the retry in git().)
 */
export function serialized<T>(key: string, task: () => Promise<T>): Promise<T> {
  const previous = tails.get(key) ?? Promise.resolve();
  const result = previous.then(task, task);
  const tail = result.catch(() => undefined);
  tails.set(key, tail);
  // Forget the key once idle, so the map does not grow with every repository ever used.
  void tail.then(() => {
    if (tails.get(key) === tail) tails.delete(key);
  });
  return result;
}
