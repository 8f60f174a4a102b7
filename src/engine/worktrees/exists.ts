import { access } from 'node:fs/promises';

/** Whether anything is at `path` (a worktree removed by hand is not). */
export function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}
