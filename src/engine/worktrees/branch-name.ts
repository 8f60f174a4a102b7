import { WorktreeError } from './worktree-error.ts';

// nanoid's alphabet: safe both as a directory name and inside a ref name.
const RUN_ID = /^[A-Za-z0-9_-]{1,64}$/;
const MAX_SLUG_LENGTH = 40;

export function assertRunId(runId: string): void {
  if (!RUN_ID.test(runId)) {
    throw new WorktreeError(`run id "${runId}" cannot name a worktree: only letters, digits, "_" and "-" can`);
  }
}

/**
 * The label as lowercase ASCII words joined by "-" ("Café: fix/ui..v2" -> "cafe-fix-ui-v2"), or "run".
 * Nothing but [a-z0-9-] survives, so no label can make an invalid ref ("..", ".lock", "@{", spaces),
 * and the branch stays easy to type in a shell.
 */
export function slugify(label: string | undefined): string {
  const words = (label ?? '')
    .normalize('NFKD')
    .replace(/\p{M}/gu, '') // accents split off by NFKD
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-');
  const slug = words.replace(/^-+/, '').slice(0, MAX_SLUG_LENGTH).replace(/-+$/, '');
  return slug || 'run';
}

/** `bridge/<slug>-<runId>`: the run id keeps it unique, the slug makes it readable. */
export function branchName(runId: string, label?: string): string {
  assertRunId(runId);
  return `bridge/${slugify(label)}-${runId}`;
}
