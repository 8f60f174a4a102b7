import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildArgv } from '../../src/engine/adapters/argv.ts';
import { untrustedConfigFound } from '../../src/engine/adapters/untrusted-files.ts';
import { TrustedDirectories } from '../../src/engine/projects/trust.ts';
import { realAdapters } from '../support/real-adapters.ts';

let root: string;
beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'trust-')));
  await mkdir(join(root, 'repo', 'src'), { recursive: true });
  await mkdir(join(root, 'other'));
});
afterEach(() => rm(root, { recursive: true, force: true }));

describe('TrustedDirectories', () => {
  it('covers a directory and everything below it, resolved, and is kept on disk', async () => {
    await mkdir(join(root, 'data'));
    const trust = await TrustedDirectories.open(join(root, 'data'));
    expect((await trust.trust(join(root, 'repo', 'src', '..'), '111')).added).toBe(true);
    expect(await trust.trust(join(root, 'repo', 'src'), '111')).toMatchObject({ added: false, entry: { path: join(root, 'repo') } });
    expect((await trust.covering(join(root, 'repo', 'src')))?.path).toBe(join(root, 'repo'));
    // `..` and links are resolved before comparing: neither leads into trust from outside.
    expect(await trust.covering(join(root, 'repo', '..', 'other'))).toBeUndefined();
    await symlink(join(root, 'other'), join(root, 'repo', 'link'));
    expect(await trust.covering(join(root, 'repo', 'link'))).toBeUndefined();
    expect(await trust.covering(join(root, 'repo-sibling'))).toBeUndefined();
    const reopened = await TrustedDirectories.open(join(root, 'data'));
    expect(reopened.entries.map((entry) => entry.path)).toEqual([join(root, 'repo')]);
    expect((await reopened.withdraw(join(root, 'repo', 'src')))?.path).toBe(join(root, 'repo'));
    expect(await reopened.covering(join(root, 'repo'))).toBeUndefined();
  });
});

describe("what an untrusted turn's CLI is told", () => {
  it('claude ignores the settings and MCP servers of the directory unless it is trusted', async () => {
    const claude = (await realAdapters()).get('claude')!;
    const argv = (trusted?: boolean) => buildArgv(claude, { prompt: 'hi', ...(trusted ? { trusted } : {}) });
    expect(argv()).toEqual(expect.arrayContaining(['--setting-sources', 'user', '--strict-mcp-config']));
    expect(argv(true)).not.toContain('--strict-mcp-config');
    expect(argv(true)).not.toContain('--setting-sources');
  });

  it("droid, which has no such flag, refuses to start beside configuration it would act on, but not the user's own", async () => {
    const droid = (await realAdapters()).get('droid')!;
    const cwd = join(root, 'repo', 'src');
    expect(untrustedConfigFound(droid, cwd, undefined)).toBeUndefined();
    await mkdir(join(root, 'repo', '.factory'));
    await writeFile(join(root, 'repo', '.factory', 'mcp.json'), '{}');
    expect(untrustedConfigFound(droid, cwd, undefined)).toMatch(/repo\/\.factory\/mcp\.json is configuration that droid would use .* \/trust/);
    // The CLI user's home holds their own settings, not a repository's.
    expect(untrustedConfigFound(droid, cwd, join(root, 'repo'))).toBeUndefined();
  });
});
