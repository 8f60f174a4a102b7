import { access } from 'node:fs/promises';

/** Whether anything is at `path` (a worktree removed by hand is not). */
export async function exists(path: string): Promise<boolean> {
  try {
    await access(path);
    return true;
  } catch {
    return false;
  }
}
