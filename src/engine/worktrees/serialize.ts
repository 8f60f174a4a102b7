import { KeyedSerializer } from '../../kernel/concurrency/keyed-serializer.ts';

/**
 * Concurrent `git worktree add`s in one repository race: one can read another's half-written
 * metadata (`failed to read .git/worktrees/<id>/commondir`), so the bridge changes a
 * repository's list of worktrees one change at a time, keyed by its common git directory.
 * (Other processes' races are left to the retry in git().)
 */
const byRepository = new KeyedSerializer();

export function serialized<T>(commonDir: string, task: () => Promise<T>): Promise<T> {
  return byRepository.run(commonDir, task);
}
