import { execFileSync } from 'node:child_process';
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentIds, AGENT_USER, cannotSwitchUser } from '../support/agent-user.ts';
import { DOCTOR_TEST_MS, startDoctorProcess, tempDir } from '../support/bridge-process.ts';
import { REPO_ROOT } from '../support/cli-env.ts';
import { cannotWall } from '../sandbox/walls-support.ts';

// `npm run doctor` as a person who is not root runs it on their own machine, with the
// default BRIDGE_SANDBOX=auto: each CLI's --version is asked inside walls like the bridge's,
// so a CLI the walls cannot run is said by the doctor, not by the first message.
const cannot = cannotSwitchUser() ?? cannotWall();
const REPO_BIN = join(REPO_ROOT, 'node_modules/.bin');

let scratch: { path: string; remove(): Promise<void> };
let env: Record<string, string>;
beforeAll(async () => {
  if (cannot) return;
  scratch = await tempDir('doctor-walls-');
  const home = join(scratch.path, 'home');
  await mkdir(home);
  await mkdir(join(scratch.path, 'data'), { mode: 0o700 });
  await mkdir(join(scratch.path, 'tmp'));
  env = {
    TMPDIR: join(scratch.path, 'tmp'),
    PATH: `${REPO_BIN}:/usr/local/bin:/usr/bin:/bin`,
    HOME: home,
    BRIDGE_DATA_DIR: join(scratch.path, 'data'),
    BRIDGE_SANDBOX: 'auto',
    // The bare name, found as npm start finds it: in node_modules/.bin.
    BRIDGE_CLAUDE_COMMAND: 'claude',
    ANTHROPIC_API_KEY: 'sk-ant-doctor-walls',
  };
});
afterAll(async () => {
  await scratch?.remove();
});

/** The doctor as the (not root) user AGENT_USER, over what `prepare` left in the scratch folder, handed to that user. */
async function doctorAsUser(overrides: Record<string, string> = {}) {
  const ids = agentIds()!;
  execFileSync('chown', ['-R', `${ids.uid}:${ids.gid}`, scratch.path]);
  const run = startDoctorProcess({ ...env, ...overrides }, ['--console'], ids);
  const { code } = await run.exited;
  return { code, lines: run.stdout().trim().split('\n'), stderr: run.stderr() };
}

/** What the doctor left in its TMPDIR, where its walls' homes and sockets are. */
async function leftInTemp(): Promise<string[]> {
  return (await readdir(env.TMPDIR!)).filter((name) => !name.startsWith('tsx-'));
}

describe.skipIf(cannot)(`npm run doctor, the sandbox on, as a user who is not root (${cannot ?? AGENT_USER})`, { timeout: DOCTOR_TEST_MS }, () => {
  it('asks the bare `claude` of node_modules/.bin for its version inside the walls, and says it from there', async () => {
    const { code, lines, stderr } = await doctorAsUser();
    expect(stderr).toBe('');
    const { uid } = agentIds()!;
    expect(lines).toContainEqual(
      expect.stringMatching(new RegExp(`^✓ sandbox: every CLI runs in a bubblewrap sandbox as the bridge’s own user \\(uid ${uid}\\)`)),
    );
    expect(lines).toContainEqual(expect.stringMatching(new RegExp(`^✓ claude: \\d+\\.\\d+\\.\\d+ \\(Claude Code\\) at ${REPO_BIN}/claude, inside the walls$`)));
    expect(lines.filter((line) => line.startsWith('✗'))).toEqual([]);
    expect(code).toBe(0);
    // It changes nothing: its walls' homes and sockets are gone.
    expect(await leftInTemp()).toEqual([]);
  });

  it('warns of a key written into a CLI’s configuration, which its agent reads in the walls, and not of a variable named there', async () => {
    const settings = join(env.HOME!, '.claude', 'settings.json');
    const local = join(env.HOME!, '.claude', 'settings.local.json');
    await mkdir(join(env.HOME!, '.claude'), { recursive: true });
    try {
      await writeFile(settings, JSON.stringify({ env: { ANTHROPIC_BASE_URL: 'https://api.anthropic.com' }, otherKey: env.ANTHROPIC_API_KEY }));
      await writeFile(local, JSON.stringify({ env: { GITHUB_TOKEN: 'ghp_0123456789abcdefghij' } }));
      const held = await doctorAsUser();
      expect(held.lines.filter((line) => line.includes('configuration:'))).toEqual([
        '! claude configuration: ~/.claude/settings.json (ANTHROPIC_API_KEY\'s value); ~/.claude/settings.local.json ("GITHUB_TOKEN") hold what looks like a key, which its agent reads inside the walls. ' +
          'Take the key out of the file: write a reference to the variable it is in instead where the CLI reads one (such as {env:NAME}), and set that variable where the bridge starts, so the credential proxy holds it and the agent sees a placeholder (docs/sandbox.md).',
      ]);
      expect(held.code).toBe(0);

      await writeFile(settings, JSON.stringify({ env: { ANTHROPIC_BASE_URL: 'https://api.anthropic.com' }, apiKeyHelper: '$HOME/bin/key' }));
      await writeFile(local, JSON.stringify({ env: { GITHUB_TOKEN: '${GITHUB_TOKEN}' } }));
      const clean = await doctorAsUser();
      expect(clean.lines.filter((line) => line.includes('configuration:'))).toEqual([]);
    } finally {
      await rm(join(env.HOME!, '.claude'), { recursive: true, force: true });
    }
  });

  it('fails a CLI the walls cannot run, with the reason from inside: a shim that execs a program of a folder they do not show', async () => {
    // Outside the walls this claude answers; inside, its shim's folder is shown, the folder of what it execs by name is not.
    const shim = join(scratch.path, 'shim');
    const hidden = join(scratch.path, 'hidden');
    await mkdir(shim);
    await mkdir(hidden);
    await writeFile(join(shim, 'claude'), '#!/bin/sh\nexec real-claude "$@"\n', { mode: 0o755 });
    await writeFile(join(hidden, 'real-claude'), '#!/bin/sh\necho "9.9.9 (Hidden Code)"\n', { mode: 0o755 });
    const outside = execFileSync(join(shim, 'claude'), ['--version'], { encoding: 'utf8', env: { PATH: `${hidden}:/usr/bin:/bin` } });
    expect(outside.trim()).toBe('9.9.9 (Hidden Code)');

    const { code, lines } = await doctorAsUser({ PATH: `${shim}:${hidden}:${env.PATH}` });
    expect(lines.find((line) => /^. claude:/.test(line))).toMatch(
      new RegExp(
        `^✗ claude: \`claude --version\` inside the walls failed \\(127\\): ${join(shim, 'claude')}: \\d+: exec: real-claude: not found\\. ` +
          `The walls show what runs \\(${join(shim, 'claude')}\\), read-only, with the node_modules or folder it is in and what a script names by absolute path.*BRIDGE_CLAUDE_COMMAND`,
      ),
    );
    expect(code).toBe(1);
  });
});

describe.skipIf(cannot)(`npm run doctor, the sandbox on, as root with BRIDGE_AGENT_USER (${cannot ?? AGENT_USER})`, { timeout: DOCTOR_TEST_MS }, () => {
  it('fails a CLI the agent user may not reach, with what the walls said', async () => {
    // root's own folder, which the agent user cannot enter: outside the walls root runs it.
    const own = await tempDir('doctor-walls-root-');
    try {
      await writeFile(join(own.path, 'claude'), '#!/bin/sh\necho "1.0.0 (Root Code)"\n', { mode: 0o755 });
      const run = startDoctorProcess({ ...env, BRIDGE_AGENT_USER: AGENT_USER, BRIDGE_CLAUDE_COMMAND: join(own.path, 'claude') }, ['--console']);
      const { code } = await run.exited;
      const line = run
        .stdout()
        .split('\n')
        .find((found) => /^. claude:/.test(found));
      expect(line).toMatch(new RegExp(`^✗ claude: \`${join(own.path, 'claude')} --version\` inside the walls failed \\(\\d+\\): .*Permission denied\\. `));
      expect(code).toBe(1);
    } finally {
      await own.remove();
    }
  });
});
