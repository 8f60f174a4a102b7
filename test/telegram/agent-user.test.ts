import { chown, lstat, mkdir, mkdtemp, readdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { execa } from 'execa';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { agentIds, cannotSwitchUser, giveToAgent, sharedRepo, AGENT_USER } from '../support/agent-user.ts';
import { alive } from '../support/fake-cli.ts';
import { OWNER, ownerIn, startTelegramWorld, type TelegramWorld } from '../support/telegram-world.ts';
import { startBridgeProcess, tempDir } from '../support/bridge-process.ts';
import { REPO_ROOT } from '../support/cli-env.ts';

// Agents as their own OS user (BRIDGE_AGENT_USER), through the real bridge process: the fake
// CLI says who it runs as and tries to read the bridge's environment and data directory.
let world: TelegramWorld | undefined;
let project: { path: string; remove(): Promise<void> } | undefined;
afterEach(async () => {
  await world?.stop();
  await project?.remove();
  world = project = undefined;
});

const CHAT = -2400;
const { say, waitText: answer } = ownerIn(() => world!, CHAT);
const skip = cannotSwitchUser();

describe('BRIDGE_AGENT_USER at start', () => {
  it('an unknown user stops the start with one line naming it, and status 78', async () => {
    const data = await tempDir('agent-user-data-');
    const bridge = startBridgeProcess({ BRIDGE_AGENT_USER: 'no-such-agent', BRIDGE_DATA_DIR: data.path }, ['--console']);
    expect(await bridge.exited).toMatchObject({ code: 78 });
    expect(bridge.stderr().trim()).toBe(
      'jsonl-bridge: BRIDGE_AGENT_USER: there is no user "no-such-agent" on this machine (make one: useradd --create-home --shell /bin/bash no-such-agent)',
    );
    await data.remove();
  });

  it.skipIf(skip)(`a bridge that is not root and lacks the capabilities says so, and exits 78${skip ? ` (skipped: ${skip})` : ''}`, async () => {
    const ids = agentIds()!;
    // The bridge itself started as the agent user, asked to run agents as nobody.
    const result = await execa('node', ['dist/server/main.js', '--console'], {
      cwd: REPO_ROOT,
      uid: ids.uid,
      gid: ids.gid,
      env: { PATH: process.env.PATH, HOME: `/home/${AGENT_USER}`, BRIDGE_AGENT_USER: 'nobody', BRIDGE_DATA_DIR: '/nonexistent/data' },
      extendEnv: false,
      reject: false,
      stdin: 'ignore',
    });
    expect(result.exitCode).toBe(78);
    expect(result.stderr.trim()).toBe(
      'jsonl-bridge: BRIDGE_AGENT_USER: running agents as nobody needs the bridge to run as root, or with CAP_KILL, CAP_SETGID, CAP_SETUID (missing: CAP_KILL, CAP_SETGID, CAP_SETUID; e.g. AmbientCapabilities= in its systemd unit)',
    );
  });
});

describe.skipIf(skip)(`agents as ${AGENT_USER}${skip ? ` (skipped: ${skip})` : ''}`, () => {
  /** The bridge with agents as the agent user, in a project of root's shared with it; the chats start in `sub` of it. */
  async function start(sub = ''): Promise<{ uid: number; gid: number }> {
    const ids = agentIds()!;
    project = await sharedRepo(ids.gid);
    if (sub) {
      await mkdir(join(project.path, sub), { mode: 0o770 });
      await chown(join(project.path, sub), 0, ids.gid);
    }
    world = await startTelegramWorld({ BRIDGE_AGENT_USER: AGENT_USER, BRIDGE_WORKDIR: join(project.path, sub) });
    await giveToAgent(world.cli.dir, ids); // where the fake CLI logs its invocations
    return ids;
  }

  it("runs the chat's CLI as that user, who cannot read the bridge's environment or data directory", async () => {
    const { uid } = await start();
    say('whoami');
    const reply = await answer(/^uid: /);
    expect(reply.text).toContain(`uid: ${uid}`);
    expect(reply.text).toMatch(/^home: \/home\/jsonl-agent$/m);
    expect(reply.text).toMatch(new RegExp(`^environ: refused: cat: /proc/${world!.bridge.pid}/environ: Permission denied$`, 'm'));
    expect(reply.text).toMatch(/^data: refused: ls: cannot open directory .*: Permission denied$/m);
    // The project is root's: git as the agent user trusts it only because the bridge said so.
    expect(reply.text).toMatch(/^git: ok$/m);

    // Its MCP config holds its secret: the agent user's alone, outside the data directory.
    const [call] = await world!.cli.invocations();
    const config = call!.argv[call!.argv.indexOf('--mcp-config') + 1]!;
    expect(config.startsWith(`/tmp/jsonl-bridge-agents-${uid}/`)).toBe(true);
    const info = await lstat(config);
    expect({ uid: info.uid, mode: info.mode & 0o777 }).toEqual({ uid, mode: 0o600 });
    expect(world!.bridge.log()).toMatch(new RegExp(`agents run as ${AGENT_USER} \\(uid ${uid}\\)`));
  });

  it('finds git refusing the project as that user unless trusted (what the tests above rely on)', async () => {
    const ids = agentIds()!;
    project = await sharedRepo(ids.gid);
    const plain = await execa('git', ['status'], { cwd: project.path, uid: ids.uid, gid: ids.gid, env: { HOME: '/nonexistent' }, reject: false });
    expect(plain.stderr).toMatch(/dubious ownership/);
  });

  it("hands it the turn's files (its agents), and stops its processes: /stop, and after a SIGKILL of the bridge, the next start", async () => {
    await start();
    say('/agents new reviewer --description "Reviews diffs" You review.');
    await answer(/reviewer/);
    say('say:first');
    await answer(/^first/);
    const [call] = await world!.cli.invocations();
    expect(Object.keys(call!.agents ?? {})).toContain('reviewer'); // read by the CLI, as the agent user, from its 0600 file

    // A CLI that ignores its interrupt is stopped as a process group, the agent user's as well.
    say('ignore-interrupt hang');
    await expect.poll(() => world!.cli.hanging()).toHaveLength(1);
    const [hanging] = await world!.cli.hanging();
    say('/stop');
    await expect.poll(() => alive(hanging!), { timeout: 15_000 }).toBe(false);

    say('grandchild hang');
    await expect.poll(() => world!.cli.hanging()).toHaveLength(2);
    const orphan = (await world!.cli.hanging())[1]!;
    world!.bridge.kill('SIGKILL');
    await world!.bridge.exited;
    expect(alive(orphan)).toBe(true);
    await world!.restart();
    await expect.poll(() => alive(orphan)).toBe(false);
    expect(world!.bridge.log()).toMatch(/^warn: stopped 1 CLI process group\(s\) left running by a previous bridge/m);
  });

  it('gives it the files people send, readable by it alone', async () => {
    const ids = await start();
    world!.telegram.sendFile({
      chatId: CHAT,
      userId: OWNER,
      chatType: 'group',
      firstName: 'Ada',
      kind: 'document',
      bytes: Buffer.from('ERROR at line 3'),
      fileName: 'build.log',
      caption: 'say:seen',
    });
    await answer(/^seen/);
    const saved = join(project!.path, '.bridge', 'inbox', 'build.log');
    const info = await stat(saved);
    expect({ uid: info.uid, mode: info.mode & 0o777 }).toEqual({ uid: ids.uid, mode: 0o600 });
    const read = await execa('cat', [saved], { uid: ids.uid, gid: ids.gid, reject: false });
    expect(read.stdout).toBe('ERROR at line 3');
  });

  it('makes a --worktree run its worktree as that user, and its git commands too', async () => {
    const { uid } = await start('pkg'); // untracked: the worktree lacks it, and it is made there as the agent user
    say('/spawn --worktree "whoami write:made.txt commit"');
    const done = await answer(/^✅ #1/, 30_000);
    expect(done.text).toContain(`uid: ${uid}`);
    expect(done.text).toMatch(/^git: ok$/m);
    const [call] = await world!.cli.invocations();
    expect(call!.cwd).toMatch(new RegExp(`^/tmp/jsonl-bridge-agents-${uid}/worktrees/[\\w-]+/pkg$`));
    expect((await stat(call!.cwd)).uid).toBe(uid);
    // Its commit landed on its branch in the project, made by git as the agent user.
    const branches = await execa('git', ['-c', `safe.directory=${project!.path}`, 'log', '--format=%s', '--branches=bridge/*'], { cwd: project!.path });
    expect(branches.stdout.split('\n')).toEqual(['work of the fake agent', 'first']);
    const head = await readFile(`${call!.cwd}/../.git`, 'utf8');
    expect(head).toMatch(new RegExp(`^gitdir: ${project!.path}/\\.git/worktrees/`));
    expect((await stat(`${call!.cwd}/made.txt`)).uid).toBe(uid);
  });

  it("merges a worktree run into the project with git as that user, none of the repository's hooks run", async () => {
    const { uid } = await start();
    const marks = await tempDir('agent-user-marks-');
    await writeFile(join(project!.path, '.git', 'hooks', 'post-merge'), `#!/bin/sh\ntouch "${marks.path}/post-merge"\n`, { mode: 0o755 });
    say('/spawn --worktree "write:merged.txt commit"');
    const done = await answer(/^✅ #1/, 30_000);
    const merge = done.buttons.find((button) => button.text === '🔀 Merge') as { callback_data: string };
    world!.telegram.pressButton({ chatId: CHAT, messageId: done.messageId, data: merge.callback_data, userId: OWNER });
    await answer(/^🔀 Merged #1 .* into main in /);
    const merged = await stat(join(project!.path, 'merged.txt'));
    expect(merged.uid).toBe(uid); // written by git as the agent user, as its turns write the project
    const log = await execa('git', ['-c', `safe.directory=${project!.path}`, 'log', '-1', '--format=%s'], { cwd: project!.path });
    expect(log.stdout).toMatch(/^Merge bridge\/[\w-]+ \(run #1 /);
    expect(await readdir(marks.path)).toEqual([]);
    await marks.remove();
  });

  it("never reads for a chat what that user cannot: /resume through a link it planted to root's sessions, /file get of a root-only file", async () => {
    const ids = await start();
    // Root's own sessions, 0600 in a 0700 folder: what a link from the agent's home must not reach.
    const roots = await mkdtemp('/tmp/roots-sessions-');
    await writeFile(
      join(roots, '0b6f6a4e-0000-4000-8000-000000000001.jsonl'),
      `${JSON.stringify({ type: 'user', timestamp: new Date().toISOString(), message: { role: 'user', content: 'ROOT ONLY PROMPT' } })}\n`,
      { mode: 0o600 },
    );
    // As the agent would, in its own home: ~/.claude/projects/<its directory's slug> -> root's folder.
    const projects = `/home/${AGENT_USER}/.claude/projects`;
    await execa('mkdir', ['-p', projects], { uid: ids.uid, gid: ids.gid });
    const planted = join(projects, project!.path.replace(/[^A-Za-z0-9]/g, '-'));
    await execa('ln', ['-sfn', roots, planted], { uid: ids.uid, gid: ids.gid });
    try {
      say('/resume');
      const listed = await answer(/^(No sessions yet|Sessions, newest first)/);
      expect(listed.text).not.toContain('ROOT ONLY');
      expect(listed.text).toMatch(/^No sessions yet/);
    } finally {
      await rm(planted, { force: true });
      await rm(roots, { recursive: true, force: true });
    }

    await writeFile(join(project!.path, 'root-only.txt'), 'ROOT ONLY FILE\n', { mode: 0o600 });
    await symlink('/etc/shadow', join(project!.path, 'shadow-link'));
    say('/file get root-only.txt');
    await answer(/^⚠️ refused: root-only\.txt is not readable by the agent user/);
    say('/file get shadow-link');
    await answer(/^⚠️ shadow-link is outside /);
    expect(world!.telegram.botMessages(CHAT).some((m) => m.document)).toBe(false);
  });
});
