import { execa } from 'execa';
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { onTestFinished } from 'vitest';

// The machine's git config (signing, hooks, default branch) must not change what the tests see:
// neither in the fixture's commands nor in the module's, which inherit this process's environment.
process.env.GIT_CONFIG_GLOBAL = '/dev/null';
process.env.GIT_CONFIG_NOSYSTEM = '1';

const IDENTITY = {
  GIT_AUTHOR_NAME: 'Test',
  GIT_AUTHOR_EMAIL: 'test@example.com',
  GIT_COMMITTER_NAME: 'Test',
  GIT_COMMITTER_EMAIL: 'test@example.com',
};

/** Runs git for the test's own setup and checks; throws on failure. */
export async function gitIn(cwd: string, ...args: string[]): Promise<string> {
  const { stdout } = await execa('git', args, { cwd, env: IDENTITY, stdin: 'ignore' });
  return stdout;
}

/** A fresh directory (real path, as git reports paths), deleted when the test ends. */
export async function tempDir(): Promise<string> {
  const dir = await realpath(await mkdtemp(join(tmpdir(), 'worktrees-test-')));
  onTestFinished(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

export interface Fixture {
  repo: string;
  /** Where the tests put worktrees: beside the repository, not inside it. */
  worktreesDir: string;
}

/** An empty repository on `main`. */
export async function emptyRepo(): Promise<Fixture> {
  const root = await tempDir();
  const repo = join(root, 'repo');
  await gitIn(root, 'init', '--quiet', '--initial-branch=main', repo);
  return { repo, worktreesDir: join(root, 'worktrees') };
}

/** A repository on `main` with one commit of `files`. */
export async function repoWith(files: Record<string, string> = { 'README.md': 'hello\n' }): Promise<Fixture> {
  const fixture = await emptyRepo();
  await commitFiles(fixture.repo, files, 'initial');
  return fixture;
}

/** Writes `files` under `dir` and commits everything there; returns the new HEAD. */
export async function commitFiles(dir: string, files: Record<string, string>, message: string): Promise<string> {
  await writeFiles(dir, files);
  await gitIn(dir, 'add', '--all');
  await gitIn(dir, 'commit', '--quiet', '--no-verify', '-m', message);
  return gitIn(dir, 'rev-parse', 'HEAD');
}

export async function writeFiles(dir: string, files: Record<string, string>): Promise<void> {
  for (const [name, content] of Object.entries(files)) {
    await mkdir(dirname(join(dir, name)), { recursive: true });
    await writeFile(join(dir, name), content);
  }
}

/** Local branch names. */
export async function branches(repo: string): Promise<string[]> {
  return (await gitIn(repo, 'for-each-ref', '--format=%(refname:short)', 'refs/heads/')).split('\n').filter(Boolean);
}

/** Paths of the worktrees git knows about, the main one first. */
export async function worktreePaths(repo: string): Promise<string[]> {
  const porcelain = await gitIn(repo, 'worktree', 'list', '--porcelain');
  return porcelain
    .split('\n')
    .filter((line) => line.startsWith('worktree '))
    .map((line) => line.slice('worktree '.length));
}
