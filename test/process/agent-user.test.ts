import { mkdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { asAgent, resolveAgentUser, runAgentsAs, trustedDirectories } from '../../src/engine/process/agent-user.ts';
import { dataDirDenials } from '../../src/kernel/policy/data-dir-rules.ts';
import { outgoingFile, resolveTarget, zipDirectory } from '../../src/engine/files/outgoing.ts';
import { tempDir } from '../support/bridge-process.ts';
import { agentIds, AGENT_USER, cannotSwitchUser } from '../support/agent-user.ts';

/** A chat app's limits on what the bridge sends: 50 MB a file, 10 MB an image shown inline. */
const LIMITS = { uploadBytes: 50 * 1024 * 1024, photoBytes: 10 * 1024 * 1024 };

afterEach(() => runAgentsAs(undefined));

describe('the agent user', () => {
  it('refuses a malformed name, an unknown user, root and the bridge’s own user, each naming BRIDGE_AGENT_USER', async () => {
    await expect(resolveAgentUser('bad name!')).rejects.toThrow('BRIDGE_AGENT_USER: expected a user name or uid, got "bad name!"');
    await expect(resolveAgentUser('no-such-agent')).rejects.toThrow('BRIDGE_AGENT_USER: there is no user "no-such-agent" on this machine');
    await expect(resolveAgentUser('0')).rejects.toThrow(/BRIDGE_AGENT_USER: "0" is (root|the user the bridge runs as)/);
    await expect(resolveAgentUser(String(process.getuid!()))).rejects.toThrow(/BRIDGE_AGENT_USER: /);
    expect(await resolveAgentUser('  ')).toBeUndefined();
  });

  it.skipIf(cannotSwitchUser())(`is found by name or uid, with its home (${cannotSwitchUser() ?? AGENT_USER})`, async () => {
    const { uid, gid } = agentIds()!;
    const expected = { name: AGENT_USER, uid, gid, home: `/home/${AGENT_USER}` };
    expect(await resolveAgentUser(AGENT_USER)).toEqual(expected);
    expect(await resolveAgentUser(String(uid))).toEqual(expected);
  });

  it('runs processes as itself, in its own environment, trusting the repository above the directory', () => {
    expect(asAgent({ PATH: '/bin' }, '/srv/p')).toEqual({ env: { PATH: '/bin' } }); // no agent user: unchanged
    runAgentsAs({ name: 'agent', uid: 1234, gid: 1235, home: '/home/agent' });
    const spawn = asAgent({ PATH: '/bin', HOME: '/root', GIT_CONFIG_COUNT: '1', GIT_CONFIG_KEY_0: 'core.editor', GIT_CONFIG_VALUE_0: 'true' }, '/srv/p');
    expect(spawn).toEqual({
      uid: 1234,
      gid: 1235,
      env: {
        PATH: '/bin',
        HOME: '/home/agent',
        USER: 'agent',
        LOGNAME: 'agent',
        TMPDIR: '/tmp/jsonl-bridge-agents-1234/tmp',
        // what was configured stays; safe.directory comes after it
        GIT_CONFIG_COUNT: '4',
        GIT_CONFIG_KEY_0: 'core.editor',
        GIT_CONFIG_VALUE_0: 'true',
        GIT_CONFIG_KEY_1: 'safe.directory',
        GIT_CONFIG_VALUE_1: '/srv/p',
        GIT_CONFIG_KEY_2: 'safe.directory',
        GIT_CONFIG_VALUE_2: '/srv',
        GIT_CONFIG_KEY_3: 'safe.directory',
        GIT_CONFIG_VALUE_3: '/',
      },
    });
    expect(trustedDirectories('/a/b/../c/')).toEqual(['/a/c', '/a', '/']);
  });
});

describe('the data directory', () => {
  it('gives Claude Code a deny rule per reading tool, by absolute path', () => {
    expect(dataDirDenials('/srv/bridge/data/')).toEqual(['Read(//srv/bridge/data/**)', 'Grep(//srv/bridge/data/**)', 'Glob(//srv/bridge/data/**)']);
  });

  it('is never sent, by name, through a link, or inside a zip of the project', async () => {
    const dir = await tempDir('outgoing-data-');
    const data = join(dir.path, 'data');
    await mkdir(join(data, 'runs'), { recursive: true });
    await writeFile(join(data, 'runs', 'r1.jsonl'), 'a run log\n');
    await writeFile(join(dir.path, 'notes.md'), '# notes\n');
    await symlink(join(data, 'runs', 'r1.jsonl'), join(dir.path, 'log-link'));
    const refused = expect.stringMatching(/is in the bridge's data directory, which holds its secrets and is never sent\.$/);
    expect(await outgoingFile(dir.path, 'data/runs/r1.jsonl', [dir.path], LIMITS, data)).toEqual({ ok: false, error: refused });
    expect(await outgoingFile(dir.path, 'log-link', [dir.path], LIMITS, data)).toEqual({ ok: false, error: refused });
    expect(await resolveTarget(dir.path, 'data', [dir.path], data)).toEqual({ ok: false, error: refused });
    expect(await outgoingFile(dir.path, 'notes.md', [dir.path], LIMITS, data)).toMatchObject({ ok: true });
    await rm(join(dir.path, 'log-link')); // a link is zipped as a link, naming its target
    const zip = await zipDirectory(dir.path, join(dir.path, 'tmp'), { limit: LIMITS.uploadBytes, dataDir: data });
    if (!zip.ok) throw new Error(zip.error);
    const listing = (await readFile(zip.path)).toString('latin1');
    expect(listing).toContain('notes.md');
    expect(listing).not.toContain('r1.jsonl');
    await dir.remove();
  });
});
