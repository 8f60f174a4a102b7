import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAgentsAs } from '../../src/engine/process/agent-user.ts';
import { decideSandbox } from '../../src/engine/sandbox/sandbox-decision.ts';
import { enclose, lowerWalls, raiseWalls, scopeHome } from '../../src/engine/sandbox/walls.ts';
import type { CliInWalls } from '../../src/engine/sandbox/wall-scope.ts';
import { tempDir } from '../support/bridge-process.ts';
import { agentIds, AGENT_USER, cannotSwitchUser } from '../support/agent-user.ts';
import { cannotWall } from './walls-support.ts';

// A CLI that unpacks its own program on its first start in a home (Copilot: 235 MB) has it
// unpacked once, as the agent user, into a folder every sandbox sees read-only: no chat's home
// holds a copy, and no agent changes what another chat's CLI runs.
const cannot = cannotSwitchUser() ?? cannotWall();

/** Unpacks into $FAKE_PKG when told to only unpack (as Copilot does with COPILOT_SEA_EXTRACT_ONLY), once; otherwise runs from it, or unpacks into its home. */
const CLI = `#!/bin/sh
if [ "$FAKE_UNPACK_ONLY" = 1 ]; then
  [ -n "$FAKE_FAIL" ] && exit 3
  echo "$(id -u)" >> "$FAKE_PKG/fills"
  [ -f "$FAKE_PKG/program" ] || echo "unpacked by $(id -u)" > "$FAKE_PKG/program"
  exit 0
fi
if [ -z "$FAKE_PKG" ]; then mkdir -p ~/.cache/fake && echo "in the home" > ~/.cache/fake/program; FAKE_PKG=~/.cache/fake; fi
echo "program=$(cat "$FAKE_PKG/program")"
{ echo evil > "$FAKE_PKG/program"; } 2>/dev/null && echo write=ok || echo write=refused
`;

describe.skipIf(cannot)(`a CLI's program unpacked once for every sandbox (${cannot ?? 'bubblewrap as ' + AGENT_USER})`, () => {
  const ids = agentIds()!;
  const user = { name: AGENT_USER, ...ids, home: `/home/${AGENT_USER}` };
  let space: Awaited<ReturnType<typeof tempDir>>;
  let homes: string;
  let work: string;
  const cache = (env: Record<string, string> = {}): CliInWalls => ({
    programCache: { env: 'FAKE_PKG', fill: { args: [], env: { FAKE_UNPACK_ONLY: '1', ...env } } },
  });

  async function script(name: string): Promise<string> {
    const path = join(space.path, 'bin', name);
    await writeFile(path, CLI, { mode: 0o755 });
    return path;
  }

  function inWalls(command: string, scope: string, cli: CliInWalls): string {
    const enclosure = enclose({ command, args: [], cwd: work, env: { PATH: '/usr/bin:/bin' } }, { home: scope, cli });
    try {
      return execFileSync(enclosure.command, enclosure.args, { uid: enclosure.uid, gid: enclosure.gid, env: enclosure.env }).toString();
    } finally {
      enclosure.close();
    }
  }

  beforeAll(async () => {
    runAgentsAs(user);
    const decision = await decideSandbox({ setting: 'bwrap', allow: [] }, user);
    space = await tempDir('program-cache-');
    await chmod(space.path, 0o711);
    homes = join(space.path, 'homes');
    work = join(space.path, 'work');
    await mkdir(homes, { mode: 0o700 });
    await mkdir(work, { mode: 0o700 });
    await mkdir(join(space.path, 'bin'), { mode: 0o755 });
    execFileSync('chown', [`${ids.uid}:${ids.gid}`, homes, work]);
    raiseWalls(decision, { homes, sockets: space.path, identity: 'bridge-a', masked: [homes] });
  });

  afterAll(async () => {
    lowerWalls();
    runAgentsAs(undefined);
    await space?.remove();
  });

  it('is unpacked once, as the agent user, beside the homes; each chat runs it read-only, and no home holds a copy', async () => {
    const command = await script('unpacking-cli');
    const first = inWalls(command, 'telegram:1', cache());
    const second = inWalls(command, 'telegram:2', cache());
    for (const seen of [first, second]) {
      expect(seen).toContain(`program=unpacked by ${ids.uid}`);
      expect(seen).toContain('write=refused');
    }
    const [folder] = execFileSync('find', [join(homes, '.programs'), '-mindepth', '1', '-maxdepth', '1'])
      .toString()
      .trim()
      .split('\n');
    expect(folder).toMatch(/\/\.programs\/fake_pkg-[0-9a-f]{8}$/);
    expect(readFileSync(join(folder!, 'program'), 'utf8')).toBe(`unpacked by ${ids.uid}\n`);
    // Once by this process, for the first start: the second chat's start found it done.
    expect(readFileSync(join(folder!, 'fills'), 'utf8')).toBe(`${ids.uid}\n`);
    for (const scope of ['telegram:1', 'telegram:2']) expect(existsSync(join(scopeHome(scope)!, '.cache'))).toBe(false);
  });

  it('leaves the CLI to unpack into its home when the unpack fails', async () => {
    const command = await script('failing-cli');
    const seen = inWalls(command, 'telegram:3', cache({ FAKE_FAIL: '1' }));
    expect(seen).toContain('program=in the home');
    expect(seen).toContain('write=ok');
  });
});
