import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { execa } from 'execa';

/**
 * The environment of a bridge process (and its git) in tests that merge: the machine's git
 * configuration must not count, and the bridge commits a merge as itself when the checkout
 * names nobody, so the test's own commits name a person.
 */
export const GIT_ENV = {
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_AUTHOR_NAME: 'T',
  GIT_AUTHOR_EMAIL: 't@example.com',
  GIT_COMMITTER_NAME: 'T',
  GIT_COMMITTER_EMAIL: 't@example.com',
};

/** A git repository at `path` on `main`, with one commit of a README: a checkout a chat can work in. */
export async function repositoryWithOneCommit(path: string): Promise<void> {
  const git = (...args: string[]) => execa('git', args, { cwd: path, env: GIT_ENV });
  await mkdir(path);
  await git('init', '--quiet', '--initial-branch=main');
  await writeFile(join(path, 'README.md'), 'hello\n');
  await git('add', '--all');
  await git('commit', '--quiet', '-m', 'first');
}
