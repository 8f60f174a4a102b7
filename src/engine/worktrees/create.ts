import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { execa } from 'execa';
import { agentUser, asAgent } from '../process/agent-user.ts';
import { childEnv } from '../process/child-env.ts';
import { currentBranch, git, gitOr, type GitFailure, resolveCommit } from './git.ts';
import { byRepository, locateRepo, repositoryProgram, WorktreeError } from './repo.ts';
import type { Worktree } from './types.ts';

export interface CreateWorktreeOptions {
  /** Where the run was asked to work: the repository is found from here. */
  dir: string;
  /** The parent of all run worktrees; each gets `<worktreesDir>/<runId>`. */
  worktreesDir: string;
  runId: string;
  label?: string;
}

/** A new worktree on a new branch `bridge/<slug>-<runId>`, made from the HEAD of `dir`'s repository. */
export async function createWorktree(options: CreateWorktreeOptions): Promise<Worktree> {
  const branch = branchName(options.runId, options.label);
  const { root, prefix, commonDir } = await locateRepo(options.dir);
  const program = await repositoryProgram(root, 'checking files out', 'spawn without --worktree');
  if (program) throw new WorktreeError(program);
  const baseCommit = await resolveCommit('HEAD', root);
  if (!baseCommit) throw new WorktreeError(`${root} has no commits yet: --worktree needs one to branch from`);
  const baseBranch = await currentBranch(root);
  const path = join(resolve(options.worktreesDir), options.runId);
  await mkdir(resolve(options.worktreesDir), { recursive: true });

  // The branch first, on its own: creating a ref is atomic, so a lock failure leaves nothing behind
  // and the retry in git() is safe. `worktree add -b` could fail after making the branch.
  await gitOr(['branch', '--no-track', branch, baseCommit], root, explained(`could not create branch ${branch}`));
  try {
    await byRepository.run(commonDir, () =>
      gitOr(['worktree', 'add', '--quiet', '--', path, branch], root, explained(`could not create a worktree at ${path}`)),
    );
  } catch (error) {
    await git(['branch', '-D', '--', branch], { cwd: root }).catch(() => undefined);
    throw error;
  }

  const workdir = resolve(path, prefix); // resolve, not join: no trailing "/" from the prefix
  // The start directory may hold nothing tracked (new, or all ignored), so the checkout lacks it.
  await makeDirectoryIn(path, workdir);
  return { repoRoot: root, path, workdir, branch, baseCommit, ...(baseBranch ? { baseBranch } : {}) };
}

/**
 * `dir` inside the checkout at `path`: as the agent user when agents run as one, since the
 * checkout is that user's (its hooks have run there) and the bridge follows no link of theirs.
 */
async function makeDirectoryIn(path: string, dir: string): Promise<void> {
  if (!agentUser()) {
    await mkdir(dir, { recursive: true });
    return;
  }
  const made = await execa('mkdir', ['-p', '--', dir], { ...asAgent(childEnv(process.env), path), extendEnv: false, stdin: 'ignore', reject: false });
  if (made.failed) throw new WorktreeError(`could not make ${dir} in the worktree: ${made.stderr.trim() || made.shortMessage}`);
}

/** git's refusal as a WorktreeError: what could not be done, and git's why. */
const explained = (what: string) => (failure: GitFailure) => {
  throw new WorktreeError(`${what}: ${failure.message}`);
};

// nanoid's alphabet: safe both as a directory name and inside a ref name.
const RUN_ID = /^[A-Za-z0-9_-]{1,64}$/;
const MAX_SLUG_LENGTH = 40;

/**
 * The label as lowercase ASCII words joined by "-" ("Café: fix/ui..v2" -> "cafe-fix-ui-v2"), or "run".
 * Nothing but [a-z0-9-] survives, so no label can make an invalid ref ("..", ".lock", "@{", spaces),
 * and the branch stays easy to type in a shell.
 */
function slugify(label: string | undefined): string {
  const words = (label ?? '')
    .normalize('NFKD')
    .replace(/\p{M}/gu, '') // accents split off by NFKD
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-');
  const slug = words.replace(/^-+/, '').slice(0, MAX_SLUG_LENGTH).replace(/-+$/, '');
  return slug || 'run';
}

/** `bridge/<slug>-<runId>`: the run id keeps it unique, the slug makes it readable. */
function branchName(runId: string, label?: string): string {
  if (!RUN_ID.test(runId)) throw new WorktreeError(`run id "${runId}" cannot name a worktree: only letters, digits, "_" and "-" can`);
  return `bridge/${slugify(label)}-${runId}`;
}
