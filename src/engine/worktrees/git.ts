import { childEnv } from '../process/child-env.ts';
import { asAgent, trustedDirectories } from '../process/agent-user.ts';
import { execa } from 'execa';
import { access } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';

/** git ran and failed; `message` is git's own explanation (its first fatal:/error: line). */
export class GitFailure extends Error {
  override name = 'GitFailure';
  constructor(
    readonly args: readonly string[],
    readonly stderr: string,
    /** Its exit status (undefined when killed or timed out) and what it printed: some commands answer with both (merge-tree's 1: conflicts). */
    readonly exitCode?: number,
    readonly stdout = '',
  ) {
    super(gitMessage(stderr) || `git ${args.join(' ')} failed`);
  }
}

/** git could not be started at all: not installed, or not on PATH. */
export class GitUnavailable extends Error {
  override name = 'GitUnavailable';
}

export interface GitOptions {
  cwd: string;
  /** Written to git's stdin (for --stdin commands); otherwise stdin is closed. */
  input?: string;
}

// Passing states worth waiting out: another git process (the run itself, the user, a gc) holding a
// lock, or another process's `worktree add` caught halfway (its metadata files exist but are empty).
const TRANSIENT_ERROR = /index\.lock|could not lock|cannot lock|unable to create '[^']*\.lock'|failed to read .*\/worktrees\/[^/]+\/(commondir|gitdir)/i;
const RETRY_DELAYS_MS = [50, 100, 200, 400, 800, 1600];
// A hook or a hung filesystem must not hang the bridge.
const TIMEOUT_MS = 120_000;

// Inherited from a bridge started inside a git hook, these would point every command at the wrong repository.
const REPO_OVERRIDES = [
  'GIT_DIR',
  'GIT_WORK_TREE',
  'GIT_INDEX_FILE',
  'GIT_COMMON_DIR',
  'GIT_OBJECT_DIRECTORY',
  'GIT_ALTERNATE_OBJECT_DIRECTORIES',
  'GIT_NAMESPACE',
  'GIT_PREFIX',
];

function gitEnv(): Record<string, string | undefined> {
  const env = childEnv(process.env);
  for (const name of REPO_OVERRIDES) delete env[name];
  return {
    ...env,
    GIT_TERMINAL_PROMPT: '0',
    GIT_EDITOR: 'true',
    GIT_SEQUENCE_EDITOR: 'true',
    GIT_PAGER: 'cat',
    PAGER: 'cat',
    // status must not take index.lock in a worktree whose run may still be committing.
    GIT_OPTIONAL_LOCKS: '0',
    // Messages in English: they are matched here and shown to users.
    LC_ALL: 'C',
  };
}

// Unicode file names as they are, not octal-escaped; never colour. Never the repository's code: its
// hooks, fsmonitor and signing program are whatever an agent wrote from its worktree (the common git
// directory, config included, is every worktree's), and the bridge's git must not run them behind the
// agent's back. Nothing signs or verifies a signature; no gc or maintenance starts in the background.
const GLOBAL_ARGS = [
  '--no-pager',
  ...['core.quotepath=false', 'color.ui=never', 'core.hooksPath=/dev/null', 'core.fsmonitor=false'],
  ...['commit.gpgsign=false', 'tag.gpgsign=false', 'merge.verifySignatures=false', 'log.showSignature=false'],
  ...['gpg.program=false', 'gpg.ssh.program=false', 'gpg.x509.program=false', 'gc.auto=0', 'maintenance.auto=false'],
].flatMap((arg) => (arg === '--no-pager' ? [arg] : ['-c', arg]));

/**
 * Runs git with `args` (never through a shell), as the agent user when there is one, with the
 * repository's hooks off, and returns its stdout without the final newline. The repository `cwd`
 * is in is trusted for this command alone (`safe.directory`): the bridge works only where it was
 * told to, and git refuses a repository another user owns, as the chat's is when agents run as
 * their own user.
 */
export async function git(args: readonly string[], options: GitOptions): Promise<string> {
  const trust = trustedDirectories(options.cwd).flatMap((dir) => ['-c', `safe.directory=${dir}`]);
  for (let attempt = 0; ; attempt++) {
    const result = await execa('git', [...GLOBAL_ARGS, ...trust, ...args], {
      cwd: options.cwd,
      ...asAgent(gitEnv(), options.cwd),
      extendEnv: false,
      ...(options.input === undefined ? { stdin: 'ignore' as const } : { input: options.input }),
      reject: false,
      timeout: TIMEOUT_MS,
    });
    if (!result.failed) return result.stdout;
    if (result.exitCode === undefined && result.signal === undefined && !result.timedOut) {
      throw new GitUnavailable(`git could not be started: ${result.shortMessage}`);
    }
    const stderr = result.timedOut ? `fatal: timed out after ${TIMEOUT_MS / 1000}s` : result.stderr;
    const delay = RETRY_DELAYS_MS[attempt];
    if (delay === undefined || !isTransient(stderr)) throw new GitFailure(args, stderr, result.exitCode, result.stdout);
    await sleep(delay * (0.5 + Math.random())); // jitter, so racing callers don't collide again
  }
}

/** Whether git failed only because another git process was busy: worth retrying. */
export function isTransient(stderr: string): boolean {
  return TRANSIENT_ERROR.test(stderr);
}

/** The commit `rev` names, or undefined when it names none. */
export function resolveCommit(rev: string, cwd: string): Promise<string | undefined> {
  return gitOr(['rev-parse', '--verify', '--quiet', `${rev}^{commit}`], cwd, () => undefined);
}

/** The branch HEAD is on in `cwd`, or undefined when detached. */
export function currentBranch(cwd: string): Promise<string | undefined> {
  return gitOr(['symbolic-ref', '--quiet', '--short', 'HEAD'], cwd, () => undefined);
}

/** What git answers, or what `refused` makes of its refusal (a GitFailure); any other error is thrown. */
export function gitOr<T>(args: readonly string[], cwd: string, refused: (failure: GitFailure) => T): Promise<string | T> {
  return git(args, { cwd }).catch((error: unknown) => {
    if (error instanceof GitFailure) return refused(error);
    throw error;
  });
}

/** git's first `fatal:`/`error:` line without the prefix, else its first line. */
function gitMessage(stderr: string): string {
  const lines = stderr
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
  const reported = lines.find((line) => /^(fatal|error):/.test(line)) ?? lines[0] ?? '';
  // Continuation lines are hints about git's own flags ("use 'remove -f -f'…"): no use in a chat.
  return reported.replace(/^(fatal|error):\s*/, '').replace(/[;:,]$/, '');
}

/** Whether anything is at `path` (a worktree removed by hand is not). */
export function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}
