import { describe, expect, it } from 'vitest';
import { isTransient } from '../../src/engine/worktrees/git.ts';

describe('isTransient', () => {
  it('retries what another git process causes for a moment', () => {
    // Seen when `git worktree add`s race in one repository.
    expect(isTransient('fatal: failed to read .git/worktrees/c2/commondir: Success')).toBe(true);
    expect(isTransient("fatal: Unable to create '/r/.git/index.lock': File exists.")).toBe(true);
    expect(isTransient("fatal: cannot lock ref 'refs/heads/bridge/x': Unable to create '/r/.git/refs/heads/bridge/x.lock': File exists.")).toBe(true);
    expect(isTransient('error: could not lock config file .git/config: File exists')).toBe(true);
  });

  it('does not retry real failures', () => {
    expect(isTransient("fatal: a branch named 'bridge/run-x' already exists")).toBe(false);
    expect(isTransient("fatal: '/w/x' already exists")).toBe(false);
    expect(isTransient('fatal: not a git repository (or any of the parent directories): .git')).toBe(false);
  });
});
