import { chown, mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ModelRequest, Reply } from '../support/mock-model/index.ts';
import { startRealCliWorld, type RealCliWorld } from '../support/real-cli-world.ts';
import { ownerIn } from '../support/telegram-world.ts';
import { tempDir } from '../support/bridge-process.ts';
import { agentIds, AGENT_USER, cannotSwitchUser, sharedRepo } from '../support/agent-user.ts';

// The real claude kept out of the bridge: as its own user it cannot read the bridge's
// environment or data directory; as the bridge's user, reading without asking (safe mode)
// and send_file still stop at the data directory, which lies inside the project here.
let real: RealCliWorld | undefined;
let project: { path: string; remove(): Promise<void> } | undefined;
/** The bridge's data directory, as the tests configure it. */
let dataDir = '';
afterEach(async () => {
  await real?.stop();
  await project?.remove();
  real = project = undefined;
});

const CHAT = -2410;
/** What the agent is asked to do, by the words of the message; then it says what the tool said. */
function script(request: ModelRequest): Reply {
  const result = request.toolResults.at(-1);
  if (result) return { text: `tool said${result.isError ? ' (error)' : ''}: ${result.content}` };
  const data = dataDir;
  const text = request.lastUserText;
  if (/probe the bridge/.test(text)) {
    const pid = real!.world.bridge.pid;
    const probe = (what: string, command: string) => `(${command} >/dev/null 2>&1 && echo ${what}: readable || echo ${what}: refused)`;
    const command = ['echo uid: $(id -u)', probe('environ', `cat /proc/${pid}/environ`), probe('data', `ls ${data}`), probe('git', 'git status')].join('; ');
    return { toolCalls: [{ name: 'Bash', input: { command, description: 'probe' } }] };
  }
  if (/read the data/.test(text)) return { toolCalls: [{ name: 'Read', input: { file_path: join(data, 'probe.txt') } }] };
  if (/read the readme/.test(text)) return { toolCalls: [{ name: 'Read', input: { file_path: join(project!.path, 'README.md') } }] };
  if (/send the root-only file/.test(text)) return { toolCalls: [{ name: 'mcp__bridge__send_file', input: { path: 'root-only.txt' } }] };
  if (/send the data/.test(text)) return { toolCalls: [{ name: 'mcp__bridge__send_file', input: { path: join(data, 'probe.txt') } }] };
  return { text: 'nothing to do' };
}

const telegram = () => real!.world.telegram;
const { say, waitText: said } = ownerIn(() => real!.world, CHAT, 40_000);

const skip = cannotSwitchUser();
describe('the real claude and the bridge it runs under', () => {
  it.skipIf(skip)(
    `as ${AGENT_USER}, its Bash can read neither the bridge's environment nor its data directory${skip ? ` (skipped: ${skip})` : ''}`,
    async () => {
      const { uid, gid } = agentIds()!;
      project = await sharedRepo(gid);
      // Its claude's own configuration, fresh for this test: nothing an earlier process left in the agent user's home counts.
      const config = join(project.path, '.agent-claude');
      await mkdir(config, { mode: 0o700 });
      await chown(config, uid, gid);
      real = await startRealCliWorld('claude', script, { BRIDGE_AGENT_USER: AGENT_USER, BRIDGE_WORKDIR: project.path, CLAUDE_CONFIG_DIR: config });
      dataDir = real.world.dataDir;
      say('probe the bridge');
      const reply = await said(/^tool said/);
      expect(reply.text).toContain(`uid: ${uid}`);
      expect(reply.text).toContain('environ: refused');
      expect(reply.text).toContain('data: refused');
      expect(reply.text).toContain('git: readable');
      // Its session is kept where the agent user's claude keeps them, where /resume finds it.
      const slug = project.path.replace(/[^a-zA-Z0-9]/g, '-');
      expect((await readdir(join(config, 'projects', slug))).some((name) => name.endsWith('.jsonl'))).toBe(true);

      // A file of root's in its directory, 0600: the agent user cannot read it, so send_file does not either.
      await writeFile(join(project.path, 'root-only.txt'), 'ROOT ONLY\n', { mode: 0o600 });
      say('send the root-only file');
      const refused = await said(/^tool said.*root-only/s);
      expect(refused.text).toMatch(/^tool said \(error\): Not sent: refused: root-only\.txt is not readable by the agent user/);
      expect(
        telegram()
          .botMessages(CHAT)
          .some((m) => m.document),
      ).toBe(false);
    },
  );

  async function withDataInProject(): Promise<string> {
    project = await tempDir('data-in-project-');
    const data = (dataDir = join(project.path, 'data'));
    real = await startRealCliWorld('claude', script, { BRIDGE_WORKDIR: project.path, BRIDGE_DATA_DIR: data });
    await writeFile(join(data, 'probe.txt'), 'bridge state\n');
    await writeFile(join(project.path, 'README.md'), 'the project\n');
    return data;
  }

  it('in safe mode, Read of a file in the data directory is refused, one in the project is not', async () => {
    await withDataInProject();
    say('/permissions safe');
    await said(/safe/);
    say('read the readme');
    await said(/^tool said: .*the project/s);
    say('read the data');
    const refused = await said(/^tool said \(error\)/);
    expect(refused.text).not.toContain('bridge state');
    expect(refused.text).toMatch(/denied by your permission settings/);
  });

  it('send_file refuses a file in the data directory, with a reason the agent reads', async () => {
    await withDataInProject();
    say('send the data');
    const refused = await said(/^tool said/);
    expect(refused.text).toMatch(/^tool said \(error\): Not sent: .*probe\.txt is in the bridge's data directory, which holds its secrets and is never sent\./);
    expect(
      telegram()
        .botMessages(CHAT)
        .some((m) => m.document),
    ).toBe(false);
  });
});
