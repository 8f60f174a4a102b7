import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLACEHOLDER_KEY } from '../../src/engine/sandbox/model-api-access.ts';
import { cannotWall } from '../sandbox/walls-support.ts';
import { agentIds, AGENT_USER, cannotSwitchUser, sharedRepo } from '../support/agent-user.ts';
import type { ModelRequest } from '../support/mock-model/index.ts';
import { processesUnder } from '../support/process-tree.ts';
import { REAL_ACP_AGENTS, startRealAcpWorld, type RealAcpWorld } from '../support/real-acp-agents.ts';
import { allowButtonOf, OWNER, shownText } from '../support/telegram-world.ts';

// The ACP agents' contract: the same cases against every real ACP agent in the suite (each
// pinned in package.json, against the mock model), one bridge per agent for all of them, in
// walls as the agent user where this machine has them: a turn, a shell command asked about and
// allowed (which, walled, cannot read the agent's key: the agent holds a placeholder, and the
// credential proxy adds the real one), Stop as `session/cancel` keeping the session in the same
// process, `/spawn` announced once, and a restart going on with the session (`session/load`, or
// the bridge's brief where the agent cannot load it).
const CHAT = OWNER;
const mentions = (request: ModelRequest, word: string) => JSON.stringify(request.messages).includes(word);
const cannot = cannotSwitchUser() ?? cannotWall();
const REAL_KEY = 'real-secret-of-the-operator';

describe.each(REAL_ACP_AGENTS)(`the real $id over ACP${cannot ? ` (not in walls: ${cannot})` : ` in walls (${AGENT_USER})`}`, (agent) => {
  let real: RealAcpWorld;
  let project: { path: string; remove(): Promise<void> } | undefined;
  const telegram = () => real.world.telegram;
  const say = (text: string) => telegram().sendText({ chatId: CHAT, userId: OWNER, text, chatType: 'private', firstName: 'Ada' });
  const shown = () => telegram().botMessages(CHAT);
  const waitText = (pattern: RegExp, ms = 60_000) => telegram().waitFor(() => shown().find((m) => pattern.test(shownText(m))), ms);
  /** The agent's processes under the bridge: its launcher's, not the children it starts. */
  const agents = () => {
    const found = processesUnder(real.world.bridge.pid).filter((row) => row.args.includes(agent.cli === 'claude-acp' ? 'claude-agent-acp' : '--acp'));
    return found.filter((row) => !found.some((parent) => parent.pid === row.ppid)).map((row) => row.pid);
  };
  const asked = (word: string) => real.mock.modelRequests.filter((request) => request.lastUserText.includes(word));

  beforeAll(async () => {
    project = cannot ? undefined : await sharedRepo(agentIds()!.gid);
    const walls: Record<string, string> = project
      ? { BRIDGE_WORKDIR: project.path, BRIDGE_AGENT_USER: AGENT_USER, BRIDGE_SANDBOX: 'bwrap', [agent.keyVariable]: REAL_KEY }
      : {};
    real = await startRealAcpWorld(agent, { BRIDGE_PERMISSION_MODE: 'ask', ...walls });
  }, 120_000);
  afterAll(async () => {
    await real?.stop();
    await project?.remove();
  });

  it('answers a turn', async () => {
    real.script((request) => ({ text: request.lastUserText.includes('PING') ? `PONG from ${agent.id}` : 'ok' }));
    say('PING');
    await waitText(new RegExp(`^PONG from ${agent.id}`));
  }, 90_000);

  // Only Copilot unpacks its own program (its manifest's walls.programCache).
  if (agent.cli === 'copilot')
    it('unpacks its program once for every chat (in walls), into a folder it is shown read-only, not into the chat’s home', () => {
      if (!project) return;
      const programs = join(`/home/${AGENT_USER}`, '.jsonl-bridge', 'homes', '.programs');
      // The agent runs with its program's folder named; the bridge had it unpacked there, as the agent user.
      const named = agents().map((pid) => /(?:^|\0)COPILOT_PKG_CACHE_HOME=([^\0]*)/.exec(readFileSync(`/proc/${pid}/environ`, 'latin1'))?.[1]);
      expect(named.length).toBeGreaterThan(0);
      for (const folder of named) {
        expect(folder).toMatch(new RegExp(`^${programs}/copilot_pkg_cache_home-[0-9a-f]{8}$`));
        expect(readdirSync(join(folder!, 'pkg', 'linux-x64')).length).toBeGreaterThan(0);
        expect(statSync(folder!).uid).toBe(agentIds()!.uid);
      }
    });

  it('asks the chat before a shell command, and runs it once allowed (in walls, where it cannot read the key)', async () => {
    real.script((request) => {
      if (!request.lastUserText.includes('MAKEFILE')) return { text: 'ok' };
      const result = request.toolResults.at(-1);
      // The key the tool printed (Qwen Code's output repeats the command first).
      if (result) return { text: `made it: ${result.content.includes('made') ? 'yes' : 'no'}; ${/key=[^$\s"]+/.exec(result.content)?.[0] ?? 'no key'}` };
      return { toolCalls: [agent.shell(`echo made > made.txt && cat made.txt; echo "key=$${agent.keyVariable}"`)] };
    });
    say('MAKEFILE please');
    const question = await telegram().waitFor(() => shown().find((m) => /echo made > made\.txt/.test(m.text ?? '') && allowButtonOf(m)), 60_000);
    const allow = allowButtonOf(question)!;
    telegram().pressButton({ chatId: CHAT, messageId: question.messageId, data: allow.callback_data, userId: OWNER });
    const answer = await waitText(/^made it: yes/);
    if (!project) return;
    expect(answer.text).toContain(agent.toolsLackKey ? 'made it: yes; no key' : `key=${PLACEHOLDER_KEY}`);
    expect(answer.text).not.toContain(REAL_KEY);
    expect(existsSync(join(project.path, 'made.txt'))).toBe(true);
    // The model API had the real key all the same, from the credential proxy.
    const calls = real.mock.requests.filter((request) => request.model).map((request) => JSON.stringify(request.headers));
    expect(calls.length).toBeGreaterThan(0);
    expect(calls.every((headers) => headers.includes(REAL_KEY))).toBe(true);
  }, 90_000);

  it('Stop cancels the turn and keeps the session: the next message is answered in it, by the same process', async () => {
    real.script((request) => {
      // Qwen Code joins a cancelled prompt to the next one: that one's words come first.
      if (request.lastUserText.includes('AFTER the stop')) return { text: mentions(request, 'PONG') ? 'same session' : 'another session' };
      if (request.lastUserText.includes('LONGJOB')) return { text: 'never', delayMs: Infinity };
      return { text: 'ok' };
    });
    const before = agents();
    expect(before).toHaveLength(1);
    say('LONGJOB');
    await expect.poll(() => asked('LONGJOB').length, { timeout: 60_000 }).toBeGreaterThan(0);
    say('/stop');
    await waitText(/^⏹ Stopped the turn; the session goes on with your next message\./);
    say('AFTER the stop');
    if (agent.emptyAfterStop) {
      await waitText(/^\(no text in the answer\)/);
      say('AFTER the stop, again');
    }
    await waitText(/^same session/);
    expect(agents()).toEqual(before);
  }, 120_000);

  it('announces a /spawn run once, with its answer', async () => {
    real.script((request) => ({ text: request.lastUserText.includes('SPAWNED') ? 'the run answered' : 'ok' }));
    say(`/spawn --cli ${agent.id} --label Look "SPAWNED task"`);
    const done = await waitText(/^✅ #1 Look/, 90_000);
    expect(done.text).toContain('the run answered');
    expect(shown().filter((m) => /^✅ #1/.test(m.text ?? ''))).toHaveLength(1);
  }, 120_000);

  it('goes on with the session after a restart of the bridge', async () => {
    real.script((request) => ({ text: request.lastUserText.includes('AFTER RESTART') ? (mentions(request, 'PONG') ? 'remembered' : 'forgot') : 'ok' }));
    await real.world.restart();
    say('AFTER RESTART');
    await waitText(/^remembered/, 90_000);
  }, 150_000);
});
