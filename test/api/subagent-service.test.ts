import { status, type ServiceError } from '@grpc/grpc-js';
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { selfSignedCertificate } from '../support/certificate.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentEvent__Output } from '../../src/surfaces/api/generated/jsonl_bridge/v1/AgentEvent.ts';
import type { OrchestrationEvent__Output } from '../../src/surfaces/api/generated/jsonl_bridge/v1/OrchestrationEvent.ts';
import type { SubagentInfo__Output } from '../../src/surfaces/api/generated/jsonl_bridge/v1/SubagentInfo.ts';
import { apiAddressOf, apiClient, introduceChats, type ApiClient } from '../support/api-client.ts';
import { startBridgeProcess, tempDir } from '../support/bridge-process.ts';
import { OWNER, startTelegramWorld, type TelegramWorld } from '../support/telegram-world.ts';

// The SubagentService served by the bridge process, driven by a real gRPC client over
// 127.0.0.1, as a CI job would: the same runs as /spawn's, in the same chats.
const TOKEN = 'ci-token-0123456789abcdef';
const IDE_TOKEN = 'ide-token-0123456789abcdef';
const OPS_TOKEN = 'ops-token-0123456789abcdef';
// A group outside ci's scope, and a chat in it where nobody has talked to the bot.
const OTHER_GROUP = -1007070;
const UNREACHED = 5151;
let world: TelegramWorld;
let api: ApiClient;

beforeAll(async () => {
  world = await startTelegramWorld({
    BRIDGE_API_ADDR: '127.0.0.1:0',
    BRIDGE_API_TOKENS: `ci=${TOKEN},ide=${IDE_TOKEN},ops=${OPS_TOKEN}`,
    BRIDGE_API_SCOPES: `ci=${OWNER}|-1004242|${UNREACHED},ops=*`,
    SUBAGENTS_MAX_QUEUED: '2',
  });
  await world.bridge.waitForLog(/SubagentService listening on/);
  api = apiClient(address(), TOKEN);
  await introduceChats(world, [OWNER, -1004242, OTHER_GROUP]);
});
afterAll(async () => {
  api?.close();
  await world?.stop();
});

const address = () => apiAddressOf(world);
const chat = { chatId: OWNER, threadId: 0 };
const texts = () => world.telegram.botMessages(OWNER).map((m) => m.text ?? '');
type SendResponse = { pending: number; delivery: string; messageId: string };
const spawn = (request: object) => api.call<{ subagentId: string; number: number; queuePosition: number }>('SpawnSubagent', { chat, ...request });
const watch = (subagentId: string, fromSequence = 0) => api.stream<AgentEvent__Output>('WatchSubagent', { subagentId, fromSequence });
const refusal = async (promise: Promise<unknown>) => {
  const error = (await promise.then(
    () => undefined,
    (e: ServiceError) => e,
  ))!;
  expect(error, 'the call should have been refused').toBeDefined();
  return { code: error.code, details: error.details };
};

describe('the SubagentService', () => {
  it('spawns a run in a chat, streams its events to the end, and the chat sees and announces it as its own', async () => {
    const { subagentId, number } = await spawn({ prompt: 'tools:2 say:api-done', name: 'From CI' });
    const events = await watch(subagentId);
    // Claude Code takes its task as its first message (queued, started, completed).
    expect(events.map((e) => e.event)).toEqual([
      'input',
      'input',
      'started',
      'toolStart',
      'toolEnd',
      'toolStart',
      'toolEnd',
      'text',
      'result',
      'input',
      'ended',
    ]);
    expect(events.map((e) => e.sequence)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(events[3]!.toolStart).toMatchObject({ name: 'Bash', inputJson: JSON.stringify({ command: 'echo step 1' }) });
    const ended = events.at(-1)!.ended!.run!;
    expect(ended).toMatchObject({ subagentId, number, status: 'SUBAGENT_STATUS_COMPLETED', result: 'api-done', name: 'From CI', steps: 2 });
    expect(ended.sessionId).toMatch(/^[0-9a-f-]{36}$/);

    await world.telegram.waitFor(() => texts().find((t) => t.startsWith(`✅ #${number} From CI`)), 20_000);
    world.telegram.sendText({ chatId: OWNER, userId: OWNER, text: '/subagents', chatType: 'private', firstName: 'Ada' });
    await world.telegram.waitFor(() => texts().find((t) => t.startsWith('Subagents') && t.includes(subagentId)), 20_000);
    const audit = await readFile(join(world.dataDir, 'audit.jsonl'), 'utf8');
    expect(audit).toContain('"by":"API client ci"');

    // A watch that lost its stream asks again from where it was, and gets the same events on.
    const resumed = await watch(subagentId, 4);
    expect(resumed.map((e) => [e.sequence, e.event])).toEqual(events.slice(4).map((e) => [e.sequence, e.event]));
  });

  it('delivers a message into the running CLI: within its turn while it makes tool calls, and the reply is the result', async () => {
    const { subagentId } = await spawn({ prompt: 'tools:40 pace:100 say:first-answer until-heard' });
    let sent: Promise<SendResponse> | undefined;
    const events = await api.stream<AgentEvent__Output>('WatchSubagent', { subagentId, fromSequence: 0 }, (event) => {
      if (event.event === 'toolStart' && !sent) sent = api.call('SendToSubagent', { subagentId, text: 'now the docs, please' });
    });
    const { messageId, ...delivery } = (await sent)!;
    expect(delivery).toEqual({ pending: 0, delivery: 'DELIVERY_LIVE' });
    // One turn took it in: queued, started and answered before its result.
    const stages = events.filter((e) => e.input?.messageId === messageId).map((e) => e.input!.stage);
    expect(stages).toEqual(['INPUT_STAGE_QUEUED', 'INPUT_STAGE_STARTED', 'INPUT_STAGE_COMPLETED']);
    expect(events.filter((e) => e.event === 'result')).toHaveLength(1);
    expect(events.at(-1)!.ended!.run).toMatchObject({ status: 'SUBAGENT_STATUS_COMPLETED', result: 'first-answer\nheard: now the docs, please' });
  });

  it('delivers a message into the running CLI as its next turn when the current one has no more to do, in the same process and session', async () => {
    const { subagentId } = await spawn({ prompt: 'sleep:2 say:before-the-docs' });
    let sent: Promise<SendResponse> | undefined;
    const events = await api.stream<AgentEvent__Output>('WatchSubagent', { subagentId, fromSequence: 0 }, (event) => {
      if (event.event === 'started' && !sent) sent = api.call('SendToSubagent', { subagentId, text: 'now the docs, please' });
    });
    expect(await sent).toMatchObject({ pending: 0, delivery: 'DELIVERY_LIVE' });
    expect(events.at(-1)!.ended!.run).toMatchObject({ status: 'SUBAGENT_STATUS_COMPLETED', result: 'echo: now the docs, please (turn 2)' });
    // Two turns, one CLI session, one process: no turn resumed another.
    const starts = events.filter((e) => e.event === 'started');
    expect(starts).toHaveLength(2);
    expect(starts[1]!.started!.sessionId).toBe(starts[0]!.started!.sessionId);
    const turns = (await world.cli.invocations()).filter((call) => /before-the-docs|now the docs/.test(call.prompt)).slice(-2);
    expect(turns.map((call) => call.prompt)).toEqual([expect.stringContaining('sleep:2 say:before-the-docs'), 'now the docs, please']);
    expect(turns[1]!.pid).toBe(turns[0]!.pid);
    expect(turns[1]!.resume).toBeUndefined();
  });

  it('cancels a run, lists runs by chat and activity, and refuses a message to an ended run', async () => {
    const { subagentId } = await spawn({ prompt: 'hang', name: 'Stuck' });
    const active = await api.call<{ runs: SubagentInfo__Output[] }>('ListSubagents', { chat, activeOnly: true });
    expect(active.runs.map((r) => r.subagentId)).toContain(subagentId);
    const cancelled = await api.call<{ cancelled: boolean; run: SubagentInfo__Output }>('CancelSubagent', { subagentId });
    expect(cancelled).toMatchObject({ cancelled: true, run: { status: 'SUBAGENT_STATUS_STOPPED', error: 'stopped by API client ci' } });
    expect(await api.call('CancelSubagent', { subagentId })).toMatchObject({ cancelled: false });
    const after = await api.call<{ runs: SubagentInfo__Output[] }>('ListSubagents', { chat, activeOnly: true });
    expect(after.runs.map((r) => r.subagentId)).not.toContain(subagentId);
    expect(await refusal(api.call('SendToSubagent', { subagentId, text: 'hello?' }))).toMatchObject({
      code: status.FAILED_PRECONDITION,
      details: expect.stringMatching(/has ended \(stopped\)/),
    });
  });

  it('runs a run of no chat: listed by the API under chat 0, announced nowhere', async () => {
    const { subagentId } = await api.call<{ subagentId: string }>('SpawnSubagent', { prompt: 'say:for-the-api-alone' });
    const events = await watch(subagentId);
    expect(events.at(-1)!.ended!.run).toMatchObject({ status: 'SUBAGENT_STATUS_COMPLETED', result: 'for-the-api-alone', chat: { chatId: 0 } });
    const listed = await api.call<{ runs: SubagentInfo__Output[] }>('ListSubagents', { chat: { chatId: 0 } });
    expect(listed.runs.map((r) => r.subagentId)).toEqual([subagentId]);
    expect(world.telegram.calls.some((c) => JSON.stringify(c.params).includes('for-the-api-alone'))).toBe(false);
  });

  it('runs an orchestration watched step by step', async () => {
    const { orchestrationId } = await api.call<{ orchestrationId: string }>('CreateOrchestration', {
      chat,
      name: 'Pipeline',
      strategy: 'ORCHESTRATION_STRATEGY_DAG',
      steps: [
        { id: 'build', prompt: 'say:built' },
        { id: 'test', prompt: 'say:tested', dependsOn: ['build'] },
      ],
    });
    const events = await api.stream<OrchestrationEvent__Output>('WatchOrchestration', { orchestrationId });
    expect(events.map((e) => [e.event, e.stepStarted?.stepId ?? e.stepCompleted?.stepId ?? ''])).toEqual([
      ['stepStarted', 'build'],
      ['stepCompleted', 'build'],
      ['stepStarted', 'test'],
      ['stepCompleted', 'test'],
      ['completed', ''],
    ]);
    expect(events[1]!.stepCompleted!.result).toContain('built');
  });

  it('revokes a run’s auto-approval once', async () => {
    const { subagentId } = await spawn({ prompt: 'hang', allowedTools: ['Bash(echo:*)'], autoApprovePermissions: true });
    expect(await api.call('RevokeAutoApprove', { subagentId })).toEqual({ revoked: true });
    expect(await api.call('RevokeAutoApprove', { subagentId })).toEqual({ revoked: false });
    await api.call('CancelSubagent', { subagentId });
    const audit = await readFile(join(world.dataDir, 'audit.jsonl'), 'utf8');
    expect(audit).toMatch(/"event":"revoke","runId":"[^"]+","chat":"telegram:111","by":"API client ci"/);
  });

  it('refuses calls without a known token, and bad requests with the right code', async () => {
    const anonymous = apiClient(address());
    const impostor = apiClient(address(), 'not-a-token-of-this-bridge');
    try {
      expect(await refusal(anonymous.call('ListSubagents', {}))).toMatchObject({ code: status.UNAUTHENTICATED });
      expect(await refusal(impostor.call('ListSubagents', {}))).toMatchObject({ code: status.UNAUTHENTICATED });
      expect(await refusal(impostor.stream('WatchSubagent', { subagentId: 'abcd' }))).toMatchObject({ code: status.UNAUTHENTICATED });
    } finally {
      anonymous.close();
      impostor.close();
    }
    expect(await refusal(spawn({ prompt: '   ' }))).toEqual({ code: status.INVALID_ARGUMENT, details: 'prompt: required' });
    expect(await refusal(spawn({ prompt: 'x', autoApprovePermissions: true }))).toMatchObject({
      code: status.INVALID_ARGUMENT,
      details: expect.stringMatching(/^INVALID_PERMISSION_CONFIG/),
    });
    expect(await refusal(spawn({ prompt: 'x', env: { ANTHROPIC_BASE_URL: 'http://evil' } }))).toMatchObject({ code: status.INVALID_ARGUMENT });
    expect(await refusal(spawn({ prompt: 'x', workingDirectory: '/etc' }))).toMatchObject({
      code: status.INVALID_ARGUMENT,
      details: expect.stringMatching(/^working_directory: /),
    });
    expect(await refusal(spawn({ prompt: 'x', cli: 'cobol' }))).toMatchObject({
      code: status.INVALID_ARGUMENT,
      details: expect.stringMatching(/Unknown CLI "cobol"/),
    });
    expect(await refusal(spawn({ prompt: 'x'.repeat(100_001) }))).toMatchObject({ code: status.INVALID_ARGUMENT });
    expect(await refusal(api.call('CancelSubagent', { subagentId: 'no-such-run' }))).toMatchObject({ code: status.NOT_FOUND });
    expect(await refusal(api.call('CancelSubagent', { subagentId: '../../etc' }))).toMatchObject({ code: status.INVALID_ARGUMENT });
    expect(await refusal(api.stream('WatchSubagent', { subagentId: 'no-such-run' }))).toMatchObject({ code: status.NOT_FOUND });
    expect(await refusal(api.call('CreateOrchestration', { chat, strategy: 7, steps: [{ id: 'a', prompt: 'x' }] }))).toMatchObject({
      code: status.INVALID_ARGUMENT,
      details: expect.stringMatching(/^strategy: /),
    });
    expect(await refusal(api.call('CreateOrchestration', { chat, steps: [{ id: 'a', prompt: 'x', dependsOn: ['a'] }] }))).toMatchObject({
      code: status.INVALID_ARGUMENT,
    });

    // Past the chat's queue: RESOURCE_EXHAUSTED, with the limits in words.
    const other = { chatId: -1004242, threadId: 0 }; // in ci's scope, and it has talked to the bot
    const held = [];
    for (let i = 0; i < 6; i++) held.push(await spawn({ chat: other, prompt: 'hang' }));
    expect(await refusal(spawn({ chat: other, prompt: 'hang' }))).toMatchObject({
      code: status.RESOURCE_EXHAUSTED,
      details: expect.stringMatching(/^Limit reached/),
    });
    for (const run of held) await api.call('CancelSubagent', { subagentId: run.subagentId });
  });
  it('answers ids every object inherits (__proto__, constructor) as unknown ones, not as an internal error', async () => {
    for (const id of ['__proto__', 'constructor', 'toString', 'hasOwnProperty']) {
      const unknown = { code: status.NOT_FOUND, details: `no subagent run ${id} (ended runs are kept for a while, then archived)` };
      expect(await refusal(api.call('SendToSubagent', { subagentId: id, text: 'hi' }))).toEqual(unknown);
      expect(await refusal(api.call('CancelSubagent', { subagentId: id }))).toEqual(unknown);
      expect(await refusal(api.call('RevokeAutoApprove', { subagentId: id }))).toEqual(unknown);
      expect(await refusal(api.stream('WatchSubagent', { subagentId: id }))).toEqual(unknown);
      expect(await refusal(api.stream('WatchOrchestration', { orchestrationId: id }))).toEqual({ code: status.NOT_FOUND, details: `no orchestration ${id}` });
    }
  });
});

describe('the SubagentService’s scopes', () => {
  const ofClient = (token: string) => apiClient(address(), token);

  it('warns at start-up once about each client that reaches no chat', () => {
    const warnings = world.bridge
      .log()
      .split('\n')
      .filter((line) => line.includes('is in no scope of BRIDGE_API_SCOPES'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(
      `API client "ide" is in no scope of BRIDGE_API_SCOPES: it reaches only the runs started with no chat, and it can start such runs and plans in safe mode, working in ${world.workdir} or below: their tools only read, and change nothing (BRIDGE_API_NO_CHAT_MODE=bypass would let them run any tool)`,
    );
  });

  it('hides another chat’s runs and orchestrations from a scoped client on every call, exactly as unknown ids', async () => {
    const ops = ofClient(OPS_TOKEN);
    try {
      const elsewhere = { chatId: OTHER_GROUP, threadId: 0 };
      const { subagentId } = await ops.call<{ subagentId: string }>('SpawnSubagent', {
        chat: elsewhere,
        prompt: 'hang',
        allowedTools: ['Bash(echo:*)'],
        autoApprovePermissions: true,
      });
      const { orchestrationId } = await ops.call<{ orchestrationId: string }>('CreateOrchestration', {
        chat: elsewhere,
        steps: [{ id: 'a', prompt: 'say:theirs' }],
      });
      // ops (`*`) sees it; ci, scoped to other chats, does not.
      const seen = await ops.call<{ runs: SubagentInfo__Output[] }>('ListSubagents', {});
      expect(seen.runs.map((r) => r.subagentId)).toContain(subagentId);
      const listed = await api.call<{ runs: SubagentInfo__Output[] }>('ListSubagents', {});
      expect(listed.runs.length).toBeGreaterThan(0);
      expect(listed.runs.every((r) => [OWNER, -1004242, 0].includes(Number(r.chat!.chatId)))).toBe(true);
      expect((await api.call<{ runs: SubagentInfo__Output[] }>('ListSubagents', { chat: elsewhere })).runs).toEqual([]);

      const unknown = (id: string) => ({ code: status.NOT_FOUND, details: `no subagent run ${id} (ended runs are kept for a while, then archived)` });
      for (const id of [subagentId, 'no-such-run']) {
        expect(await refusal(api.call('SendToSubagent', { subagentId: id, text: 'hi' }))).toEqual(unknown(id));
        expect(await refusal(api.call('CancelSubagent', { subagentId: id }))).toEqual(unknown(id));
        expect(await refusal(api.call('RevokeAutoApprove', { subagentId: id }))).toEqual(unknown(id));
        expect(await refusal(api.stream('WatchSubagent', { subagentId: id }))).toEqual(unknown(id));
      }
      for (const id of [orchestrationId, 'no-such-plan']) {
        expect(await refusal(api.stream('WatchOrchestration', { orchestrationId: id }))).toEqual({ code: status.NOT_FOUND, details: `no orchestration ${id}` });
      }
      // Nothing was done to it: it still runs, with its auto-approval.
      expect(await ops.call('RevokeAutoApprove', { subagentId })).toEqual({ revoked: true });
      expect(await ops.call('CancelSubagent', { subagentId })).toMatchObject({ cancelled: true });
    } finally {
      ops.close();
    }
  });

  it('refuses a spawn or a plan outside the client’s scope, and into a chat the bot cannot reach', async () => {
    const elsewhere = { chatId: OTHER_GROUP, threadId: 0 };
    const denied = { code: status.PERMISSION_DENIED, details: `chat ${OTHER_GROUP} is outside the chats BRIDGE_API_SCOPES gives the client "ci"` };
    expect(await refusal(spawn({ chat: elsewhere, prompt: 'x' }))).toEqual(denied);
    expect(await refusal(api.call('CreateOrchestration', { chat: elsewhere, steps: [{ id: 'a', prompt: 'x' }] }))).toEqual(denied);
    const unreached = { chatId: UNREACHED, threadId: 0 };
    expect(await refusal(spawn({ chat: unreached, prompt: 'x' }))).toMatchObject({
      code: status.FAILED_PRECONDITION,
      details: expect.stringMatching(/^the bot cannot reach chat 5151: nobody allowed has talked to it there yet/),
    });
    expect(await refusal(api.call('CreateOrchestration', { chat: unreached, steps: [{ id: 'a', prompt: 'x' }] }))).toMatchObject({
      code: status.FAILED_PRECONDITION,
    });
    expect((await api.call<{ runs: SubagentInfo__Output[] }>('ListSubagents', { chat: unreached })).runs).toEqual([]);
  });

  it('lets a client no scope names reach only the runs of no chat', async () => {
    const ide = ofClient(IDE_TOKEN);
    try {
      expect(await refusal(ide.call('SpawnSubagent', { chat, prompt: 'x' }))).toMatchObject({
        code: status.PERMISSION_DENIED,
        details: `chat ${OWNER} is outside the chats BRIDGE_API_SCOPES gives the client "ide"`,
      });
      const { subagentId } = await spawn({ prompt: 'hang' });
      expect(await refusal(ide.call('CancelSubagent', { subagentId }))).toMatchObject({ code: status.NOT_FOUND });
      const { subagentId: own } = await ide.call<{ subagentId: string }>('SpawnSubagent', { prompt: 'say:no-chat-run' });
      const events = await ide.stream<AgentEvent__Output>('WatchSubagent', { subagentId: own });
      expect(events.at(-1)!.ended!.run).toMatchObject({ status: 'SUBAGENT_STATUS_COMPLETED', result: 'no-chat-run' });
      // In safe mode, though the bridge's chats bypass: nobody is there to ask, and nobody chose more for it.
      const [ran] = (await world.cli.invocations()).filter((r) => r.prompt.includes('say:no-chat-run'));
      expect(ran!.argv.join(' ')).toContain('--permission-mode dontAsk');
      expect(ran!.argv).not.toContain('--dangerously-skip-permissions');
      expect(await refusal(ide.call('SpawnSubagent', { prompt: 'x', allowedTools: ['Bash(echo:*)'], autoApprovePermissions: true }))).toEqual({
        code: status.INVALID_ARGUMENT,
        details: 'Runs of no chat are in safe mode: they only read, and --auto-approve, --allow cannot change that. BRIDGE_API_NO_CHAT_MODE sets their mode.',
      });
      const listed = await ide.call<{ runs: SubagentInfo__Output[] }>('ListSubagents', {});
      expect(listed.runs.map((r) => r.subagentId)).toContain(own);
      expect(listed.runs.every((r) => Number(r.chat!.chatId) === 0)).toBe(true);
      await api.call('CancelSubagent', { subagentId });
    } finally {
      ide.close();
    }
  });
});

describe('the SubagentService without tokens', () => {
  it('refuses every call', async () => {
    const bare = await startTelegramWorld({ BRIDGE_API_ADDR: '127.0.0.1:0' });
    try {
      await bare.bridge.waitForLog(/SubagentService listening on/);
      const client = apiClient(/SubagentService listening on (\S+),/.exec(bare.bridge.log())![1]!, 'anything-at-all-here');
      expect(await refusal(client.call('ListSubagents', {}))).toMatchObject({
        code: status.PERMISSION_DENIED,
        details: expect.stringMatching(/BRIDGE_API_TOKENS is not set/),
      });
      client.close();
    } finally {
      await bare.stop();
    }
  });
});

describe('runs of no chat (BRIDGE_API_NO_CHAT_MODE)', () => {
  it('bypass when the operator says so, and the start-up warning says what that gives a client no scope names', async () => {
    const bypassing = await startTelegramWorld({
      BRIDGE_API_ADDR: '127.0.0.1:0',
      BRIDGE_API_TOKENS: `ide=${IDE_TOKEN}`,
      BRIDGE_API_NO_CHAT_MODE: 'bypass',
      BRIDGE_PERMISSION_MODE: 'safe',
    });
    try {
      await bypassing.bridge.waitForLog(/SubagentService listening on/);
      expect(bypassing.bridge.log()).toContain(
        `API client "ide" is in no scope of BRIDGE_API_SCOPES: it reaches only the runs started with no chat, and it can start such runs and plans in bypass mode (BRIDGE_API_NO_CHAT_MODE=bypass), working in ${bypassing.workdir} or below: they run any command and write any file the agents' user may, asking nobody`,
      );
      const ide = apiClient(apiAddressOf(bypassing), IDE_TOKEN);
      try {
        const { subagentId } = await ide.call<{ subagentId: string }>('SpawnSubagent', { prompt: 'say:bypassed-no-chat' });
        const events = await ide.stream<AgentEvent__Output>('WatchSubagent', { subagentId });
        expect(events.at(-1)!.ended!.run).toMatchObject({ status: 'SUBAGENT_STATUS_COMPLETED', result: 'bypassed-no-chat' });
      } finally {
        ide.close();
      }
      const [ran] = (await bypassing.cli.invocations()).filter((r) => r.prompt.includes('say:bypassed-no-chat'));
      expect(ran!.argv).toContain('--dangerously-skip-permissions');
    } finally {
      await bypassing.stop();
    }
  });

  it('refuses ask at start, in one line, exiting 78: a run of no chat has nobody to ask', async () => {
    for (const [mode, line] of [
      [
        'ask',
        'jsonl-bridge: BRIDGE_API_NO_CHAT_MODE: "ask" cannot work, a run of no chat has nobody to ask: set safe (the default: its runs only read) or bypass',
      ],
      ['yolo', 'jsonl-bridge: BRIDGE_API_NO_CHAT_MODE: expected safe or bypass, got "yolo"'],
    ]) {
      const data = await tempDir('bridge-data-');
      try {
        const bridge = startBridgeProcess({
          BRIDGE_DATA_DIR: data.path,
          TELEGRAM_BOT_TOKEN: '123:abc-0000000000000000000000000000000',
          BRIDGE_API_ADDR: '127.0.0.1:0',
          BRIDGE_API_TOKENS: `ide=${IDE_TOKEN}`,
          BRIDGE_API_NO_CHAT_MODE: mode!,
        });
        expect((await bridge.exited).code).toBe(78);
        expect(bridge.stderr().trim()).toBe(line);
      } finally {
        await data.remove();
      }
    }
  });
});

describe('the SubagentService over TLS', () => {
  it('serves clients that trust its certificate, and no plaintext client', async () => {
    const { dir, cert, key } = await selfSignedCertificate();
    const tls = await startTelegramWorld({
      BRIDGE_API_ADDR: '127.0.0.1:0',
      BRIDGE_API_TOKENS: `ci=${TOKEN}`,
      BRIDGE_API_TLS_CERT: cert,
      BRIDGE_API_TLS_KEY: key,
    });
    try {
      await tls.bridge.waitForLog(/SubagentService listening on .* \(TLS\)/);
      const where = /SubagentService listening on (\S+) \(TLS\)/.exec(tls.bridge.log())![1]!;
      const trusted = apiClient(where, TOKEN, await readFile(cert));
      const plaintext = apiClient(where, TOKEN);
      expect(await trusted.call('ListSubagents', {})).toEqual({ runs: [] });
      expect(await refusal(plaintext.call('ListSubagents', {}))).toMatchObject({ code: status.UNAVAILABLE });
      trusted.close();
      plaintext.close();
    } finally {
      await tls.stop();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
