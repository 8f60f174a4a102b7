import { chmod, mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { installation } from '../../src/engine/sandbox/installation.ts';

// What of a CLI's installation its walls show: every way it can be named (a path, a bare
// name on the PATH such as npm start's node_modules/.bin, a shim that execs a native binary
// elsewhere) ends at what will really run, and where it lives is bound read-only.
let root = '';
afterEach(() => rm(root, { recursive: true, force: true }));

async function executable(path: string, text: string): Promise<void> {
  await writeFile(path, text);
  await chmod(path, 0o755);
}

describe('a CLI’s installation', () => {
  it('a bare name is found on the PATH, through node_modules/.bin to its package, bound whole', async () => {
    root = await realpath(await mkdtemp(join(tmpdir(), 'installation-')));
    const pkg = join(root, 'app', 'node_modules', 'agent-cli');
    await mkdir(join(root, 'app', 'node_modules', '.bin'), { recursive: true });
    await mkdir(pkg, { recursive: true });
    await executable(join(pkg, 'cli.js'), '#!/usr/bin/env node\nconsole.log(1)\n');
    await symlink('../agent-cli/cli.js', join(root, 'app', 'node_modules', '.bin', 'agent'));
    const found = installation('agent', `/nowhere:${join(root, 'app', 'node_modules', '.bin')}:/usr/bin`);
    expect(found.command).toBe(join(pkg, 'cli.js'));
    expect(found.readOnly).toContain(join(root, 'app', 'node_modules'));
  });

  it('a shim that execs a native binary elsewhere brings that binary’s folder in too', async () => {
    root = await realpath(await mkdtemp(join(tmpdir(), 'installation-')));
    await mkdir(join(root, 'bin'), { recursive: true });
    await mkdir(join(root, 'opt', 'agent', 'libexec'), { recursive: true });
    await executable(join(root, 'opt', 'agent', 'libexec', 'agent-native'), '\x7fELF not really');
    await executable(join(root, 'bin', 'agent'), `#!/bin/sh\nexec ${join(root, 'opt', 'agent', 'libexec', 'agent-native')} "$@"\n`);
    const found = installation('agent', join(root, 'bin'));
    expect(found.command).toBe(join(root, 'bin', 'agent'));
    expect(found.readOnly).toEqual(expect.arrayContaining([join(root, 'bin'), join(root, 'opt', 'agent', 'libexec')]));
  });

  it('a name on no PATH stays as it is, for the walls to say it is not found', () => {
    expect(installation('no-such-agent-cli', '/nowhere').command).toBe('no-such-agent-cli');
  });
});
