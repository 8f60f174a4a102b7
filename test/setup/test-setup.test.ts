import { execa } from 'execa';
import { chmod, mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { agentIds, AGENT_USER, cannotSwitchUser } from '../support/agent-user.ts';
import { tempDir } from '../support/bridge-process.ts';
import { REPO_ROOT } from '../support/cli-env.ts';

// `npm test`'s first step and `.ci/run`'s set-up, one script: on a machine without the
// packages the suite runs for real, it installs them where it may (root here), and makes the
// agent user; where it may not, it says in one line what to run. The system's own commands are
// stand-ins that write down what they were asked: nothing is installed or made here.
const SCRIPT = join(REPO_ROOT, 'scripts/test-setup.sh');

/** The command each Debian package brings. */
const BRINGS: Record<string, string> = {
  'redis-server': 'redis-server',
  openssl: 'openssl',
  chromium: 'chromium',
  bubblewrap: 'bwrap',
  socat: 'socat',
  prometheus: 'promtool',
};

let scratch: { path: string; remove(): Promise<void> };
let bin: string;
let installed: string;
let log: string;
beforeEach(async () => {
  scratch = await tempDir('test-setup-');
  bin = join(scratch.path, 'bin');
  installed = join(scratch.path, 'installed');
  log = join(scratch.path, 'asked');
  await Promise.all([mkdir(bin), mkdir(installed)]);
  await writeFile(log, '');
  await chmod(scratch.path, 0o755);
  await chmod(log, 0o666);
  for (const real of ['dirname', 'sed', 'grep']) await symlink(`/usr/bin/${real}`, join(bin, real)).catch(() => symlink(`/bin/${real}`, join(bin, real)));
  const stub = (name: string, body: string) => writeFile(join(bin, name), `#!/bin/sh\necho "${name} $*" >> ${log}\n${body}\n`, { mode: 0o755 });
  // apt-get install leaves each package's command behind, as the real one would.
  const brings = Object.entries(BRINGS)
    .map(([pkg, command]) => `${pkg}) printf '#!/bin/sh\\n' > ${installed}/${command}; /bin/chmod +x ${installed}/${command};;`)
    .join(' ');
  await stub('apt-get', `[ "$1" = install ] || exit 0\nfor arg; do case "$arg" in ${brings} esac; done`);
  for (const name of ['systemctl', 'service', 'useradd', 'chmod', 'runuser']) await stub(name, '');
  // The agent user is missing until useradd makes it.
  await writeFile(join(bin, 'id'), `#!/bin/sh\nif [ "$1" = ${AGENT_USER} ]; then grep -q useradd ${log}; exit $?; fi\nexec /usr/bin/id "$@"\n`, {
    mode: 0o755,
  });
});
afterEach(async () => {
  await scratch?.remove();
});

async function setup(as?: { uid: number; gid: number }) {
  const result = await execa('/bin/bash', [SCRIPT, '--unattended'], {
    env: { PATH: `${bin}:${installed}` },
    extendEnv: false,
    reject: false,
    ...(as ? { uid: as.uid, gid: as.gid } : {}),
  });
  const asked = (await readFile(log, 'utf8')).trim().split('\n').filter(Boolean);
  await writeFile(log, '');
  return { code: result.exitCode, stderr: result.stderr, asked };
}

describe.skipIf(process.getuid?.() !== 0)('the tests’ set-up (scripts/test-setup.sh), as root', () => {
  it('installs the missing packages (prometheus without its recommends, its services stopped) and makes the agent user, then does nothing', async () => {
    const first = await setup();
    expect(first.code).toBe(0);
    expect(first.asked).toEqual([
      'apt-get update -qq',
      'apt-get install -y -qq redis-server openssl chromium bubblewrap socat',
      'apt-get install -y -qq --no-install-recommends prometheus',
      'systemctl stop redis-server',
      'systemctl disable --now prometheus',
      `useradd --create-home --shell /bin/bash ${AGENT_USER}`,
      ...REPO_ROOT.replace(/\/$/, '')
        .split('/')
        .map((_, i, parts) => parts.slice(0, parts.length - i).join('/'))
        .filter(Boolean)
        .map((dir) => `runuser -u ${AGENT_USER} -- test -x ${dir}`),
    ]);
    expect(first.stderr).toMatch(/^Installing what the tests need: redis-server openssl chromium prometheus bubblewrap socat$/m);
    // Everything there: a second run asks for nothing.
    await writeFile(log, 'useradd (made before)\n');
    const again = await setup();
    expect(again.code).toBe(0);
    expect(again.asked.filter((line) => /^(apt-get|systemctl|useradd --create|chmod)/.test(line))).toEqual([]);
    expect(again.stderr).toBe('');
  });
});

describe.skipIf(cannotSwitchUser())(`the tests’ set-up, as a user who may not become root (${cannotSwitchUser() ?? AGENT_USER})`, () => {
  it('says in one line what to install and how, and stops', async () => {
    const { code, stderr, asked } = await setup(agentIds());
    expect(code).toBe(1);
    expect(stderr.trim().split('\n')).toEqual([
      "npm test needs Debian's redis-server openssl chromium prometheus bubblewrap socat (apt-get install -y redis-server openssl chromium prometheus bubblewrap socat): run `sudo bash scripts/test-setup.sh` once, which installs them, or `bash .ci/run`.",
    ]);
    expect(asked).toEqual([]);
  });
});
