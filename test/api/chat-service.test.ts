import { status, type ServiceError } from '@grpc/grpc-js';
import { realpathSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatTurnEvent__Output } from '../../src/surfaces/api/generated/jsonl_bridge/v1/ChatTurnEvent.ts';
import { apiAddressOf, chatApiClient, introduceChats, type ChatApiClient } from '../support/api-client.ts';
import { OWNER, ownerIn, shownText, startTelegramWorld, type TelegramWorld } from '../support/telegram-world.ts';

// The ChatService served by the bridge process, driven by a real gRPC client over 127.0.0.1
// as a CI job would: a message into a chat's main session, the turn's events streamed back
// to its answer, and the chat seeing both, under the client's name.
const TOKEN = 'ci-token-0123456789abcdef';
// In ci's scope, each a chat that has talked to the bot; one in scope where nobody has; one outside.
const GROUP = -1004242;
const QUIET = -1004343;
const UNREACHED = 5151;
const OTHER_GROUP = -1007070;
let world: TelegramWorld;
let api: ChatApiClient;

beforeAll(async () => {
  world = await startTelegramWorld({
    BRIDGE_API_ADDR: '127.0.0.1:0',
    BRIDGE_API_TOKENS: `ci=${TOKEN}`,
    BRIDGE_API_SCOPES: `ci=${OWNER}|${GROUP}|${QUIET}|${UNREACHED}`,
  });
  await world.bridge.waitForLog(/SubagentService listening on .*; ChatService beside it/);
  api = chatApiClient(address(), TOKEN);
  await introduceChats(world, [OWNER, GROUP, QUIET, OTHER_GROUP]);
});
afterAll(async () => {
  api?.close();
  await world?.stop();
});

const address = () => apiAddressOf(world);
const texts = (chatId: number) => world.telegram.botMessages(chatId).map(shownText);
const refusal = async (promise: Promise<unknown>) => {
  const error = (await promise.then(
    () => undefined,
    (e: ServiceError) => e,
  ))!;
  expect(error, 'the call should have been refused').toBeDefined();
  return { code: error.code, details: error.details };
};
const audit = async () =>
  (await readFile(join(world.dataDir, 'audit.jsonl'), 'utf8').catch(() => ''))
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, string>)
    .filter((entry) => entry.event === 'message');

describe('the ChatService', () => {
  it('sends a message into a chat’s session: accepted, the turn’s events, then the answer; the chat shows it under the client’s name', async () => {
    const messages = await api.send({ chat: { chatId: OWNER }, text: 'tools:2 say:from-ci' }).messages;

    expect(messages[0]!.accepted).toMatchObject({ queuePosition: 0, chat: { chatId: OWNER, chat: `telegram:${OWNER}` } });
    const { turnId } = messages[0]!.accepted!;
    expect(turnId).toMatch(/^[\w-]{10}$/);
    const events = messages.slice(1, -1);
    expect(events.every((m) => m.event === 'agent')).toBe(true);
    expect(events.map((m) => m.agent!.sequence)).toEqual(events.map((_, i) => i));
    const kinds = events.map((m) => m.agent!.event);
    expect(kinds.filter((k) => k === 'toolStart' || k === 'toolEnd')).toEqual(['toolStart', 'toolEnd', 'toolStart', 'toolEnd']);
    expect(kinds.indexOf('started')).toBeLessThan(kinds.indexOf('toolStart'));
    expect(kinds.lastIndexOf('toolEnd')).toBeLessThan(kinds.indexOf('result'));
    expect(events.find((m) => m.agent!.toolStart)!.agent!.toolStart).toMatchObject({ name: 'Bash', inputJson: JSON.stringify({ command: 'echo step 1' }) });

    const ended = messages.at(-1)!.ended!;
    expect(ended).toMatchObject({ turnId, status: 'TURN_STATUS_COMPLETED', text: 'from-ci', error: '' });
    expect(ended.costUsd).toBeGreaterThan(0);
    expect(ended.durationMs).toBeGreaterThan(0);
    expect(ended.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(ended.sessionId).toBe(events.find((m) => m.agent!.started)!.agent!.started!.sessionId);

    // The chat: the message headed by the client, and the answer replying to it.
    const shown = await world.telegram.waitFor(() => world.telegram.botMessages(OWNER).find((m) => shownText(m) === '🔌 ci: tools:2 say:from-ci'));
    const answer = await world.telegram.waitFor(() => world.telegram.botMessages(OWNER).find((m) => shownText(m) === 'from-ci'));
    expect(answer.replyToMessageId).toBe(shown.messageId);

    await expect
      .poll(async () => (await audit()).find((e) => e.turnId === turnId))
      .toMatchObject({ chat: `telegram:${OWNER}`, by: 'API client ci', decision: 'accepted', inputPreview: 'tools:2 say:from-ci' });
    expect(await readFile(join(world.dataDir, 'audit.jsonl'), 'utf8')).not.toContain(TOKEN);

    // GetChat names the session the turn ran in.
    const chat = await api.getChat({ chat: { chatId: OWNER } });
    expect(chat).toMatchObject({ sessionId: ended.sessionId, turnRunning: false, queued: 0 });
  });

  it('queues behind a person’s turn and never steers into it, though the chat steers people’s messages', async () => {
    const person = ownerIn(() => world, GROUP);
    // Steer, the default: a person's message now would go into the turn while it makes its calls.
    person.say('tools:30 pace:100 wait-for:go-person say:person-answer');
    await expect.poll(async () => (await api.getChat({ chat: { chatId: GROUP } })).turnStartedAtMs, { timeout: 20_000 }).toBeGreaterThan(0);

    const seen: ChatTurnEvent__Output[] = [];
    const sent = api.send({ chat: { chatId: GROUP }, text: 'say:api-after' }, (m) => seen.push(m));
    await expect.poll(() => seen.length, { timeout: 20_000 }).toBe(1);
    expect(seen[0]!.accepted).toMatchObject({ queuePosition: 1 });
    expect(await api.getChat({ chat: { chatId: GROUP } })).toMatchObject({ turnRunning: true, queued: 1, busyMode: 'BUSY_MODE_STEER' });
    await person.waitText(/^🔌 ci: say:api-after/);
    // The person's turn is at work or waits for its go-ahead: the message waits too, unanswered.
    expect((await world.cli.invocations()).some((r) => r.prompt.includes('say:api-after'))).toBe(false);
    expect(seen).toHaveLength(1);

    await writeFile(join(world.workdir, 'go-person'), '');
    const messages = await sent.messages;
    expect(messages.at(-1)!.ended).toMatchObject({ status: 'TURN_STATUS_COMPLETED', text: 'api-after' });
    const answered = await person.waitText(/^person-answer/);
    expect(shownText(answered)).toBe('person-answer');
    await person.waitText(/^api-after/);
    expect(texts(GROUP).filter((t) => /^(person-answer|api-after)$/.test(t))).toEqual(['person-answer', 'api-after']);
    // Its own turn of the CLI, started only once the person's had answered.
    const turns = await world.cli.invocations();
    const personTurn = turns.find((r) => r.prompt.includes('wait-for:go-person'))!;
    const apiTurn = turns.find((r) => r.prompt === 'say:api-after')!;
    expect(apiTurn.startedAt).toBeGreaterThan(personTurn.startedAt);
  });

  it('lets a client hang up mid-turn: the turn goes on and is answered in the chat', async () => {
    let toolStarted = () => {};
    const working = new Promise<void>((resolve) => (toolStarted = resolve));
    const call = api.send({ chat: { chatId: OWNER }, text: 'tools:10 pace:150 say:answered-anyway' }, (m) => m.agent?.toolStart && toolStarted());
    await working;
    call.cancel();
    expect(await refusal(call.messages)).toMatchObject({ code: status.CANCELLED });
    const answer = await world.telegram.waitFor(() => world.telegram.botMessages(OWNER).find((m) => shownText(m) === 'answered-anyway'), 20_000);
    expect(answer).toBeDefined();
    await expect.poll(async () => (await api.getChat({ chat: { chatId: OWNER } })).turnRunning, { timeout: 10_000 }).toBe(false);
    expect(world.bridge.log()).not.toMatch(/an API call failed/);
  });

  it('GetChat returns the chat’s CLI, session, directory and modes', async () => {
    const fresh = await api.getChat({ chat: { chatId: QUIET } });
    expect(fresh).toEqual({
      chat: { chatId: QUIET, threadId: 0, chat: `telegram:${QUIET}`, thread: '' },
      cli: 'claude',
      model: '',
      sessionId: '',
      workingDirectory: realpathSync(world.workdir),
      permissionMode: 'PERMISSION_MODE_BYPASS',
      busyMode: 'BUSY_MODE_STEER',
      turnRunning: false,
      turnStartedAtMs: 0,
      queued: 0,
    });
    const person = ownerIn(() => world, QUIET);
    person.say('/permissions ask');
    person.say('/busy queue');
    await expect
      .poll(async () => {
        const { permissionMode, busyMode } = await api.getChat({ chat: { chat: `telegram:${QUIET}` } });
        return [permissionMode, busyMode];
      })
      .toEqual(['PERMISSION_MODE_ASK', 'BUSY_MODE_QUEUE']);
  });

  it('refuses a chat outside the client’s scope, one the bot cannot reach, and a bad request', async () => {
    const outside = { code: status.PERMISSION_DENIED, details: `chat ${OTHER_GROUP} is outside the chats BRIDGE_API_SCOPES gives the client "ci"` };
    expect(await refusal(api.send({ chat: { chatId: OTHER_GROUP }, text: 'say:sneaky' }).messages)).toEqual(outside);
    expect(await refusal(api.getChat({ chat: { chatId: OTHER_GROUP } }))).toEqual(outside);
    expect(await refusal(api.send({ chat: { chatId: UNREACHED }, text: 'say:hello' }).messages)).toMatchObject({
      code: status.FAILED_PRECONDITION,
      details: expect.stringMatching(/^the bot cannot reach chat 5151: nobody allowed has talked to it there yet/),
    });
    expect(await refusal(api.getChat({ chat: { chatId: UNREACHED } }))).toMatchObject({ code: status.FAILED_PRECONDITION });
    expect(await refusal(api.send({ text: 'say:nowhere' }).messages)).toMatchObject({
      code: status.INVALID_ARGUMENT,
      details: expect.stringMatching(/^chat: required/),
    });
    expect(await refusal(api.send({ chat: { chatId: OWNER }, text: '   ' }).messages)).toEqual({ code: status.INVALID_ARGUMENT, details: 'text: required' });
    expect(await refusal(api.getChat({ chat: { chat: 'no chat at all' } }))).toMatchObject({ code: status.INVALID_ARGUMENT });

    // Nothing reached the other chat, and the trail says who tried.
    expect(texts(OTHER_GROUP).some((t) => t.includes('sneaky'))).toBe(false);
    expect((await world.cli.invocations()).some((r) => r.prompt.includes('sneaky'))).toBe(false);
    await expect
      .poll(async () => (await audit()).find((e) => e.chat === `telegram:${OTHER_GROUP}`))
      .toMatchObject({
        by: 'API client ci',
        decision: `refused: ${outside.details}`,
      });
  });

  it('refuses a call without a known token', async () => {
    const anonymous = chatApiClient(address());
    const impostor = chatApiClient(address(), 'not-a-token-of-this-bridge');
    try {
      for (const client of [anonymous, impostor]) {
        expect(await refusal(client.send({ chat: { chatId: OWNER }, text: 'say:intruder' }).messages)).toMatchObject({ code: status.UNAUTHENTICATED });
        expect(await refusal(client.getChat({ chat: { chatId: OWNER } }))).toMatchObject({ code: status.UNAUTHENTICATED });
      }
    } finally {
      anonymous.close();
      impostor.close();
    }
    expect(texts(OWNER).some((t) => t.includes('intruder'))).toBe(false);
  });
});

describe('the ChatService past a chat’s daily budget', () => {
  it('refuses the message with RESOURCE_EXHAUSTED, saying why, and the chat shows nothing of it', async () => {
    const spent = await startTelegramWorld({
      BRIDGE_API_ADDR: '127.0.0.1:0',
      BRIDGE_API_TOKENS: `ci=${TOKEN}`,
      BRIDGE_API_SCOPES: `ci=${OWNER}`,
      BRIDGE_DAILY_BUDGET_USD: '0.0001',
    });
    await spent.bridge.waitForLog(/SubagentService listening on \S+,/);
    const client = chatApiClient(/SubagentService listening on (\S+),/.exec(spent.bridge.log())![1]!, TOKEN);
    try {
      spent.telegram.sendText({ chatId: OWNER, userId: OWNER, text: '/help', firstName: 'Ada' });
      await spent.telegram.waitFor(() => spent.telegram.botMessages(OWNER).length > 0, 20_000);
      // The first turn spends the whole budget (the fake CLI reports $0.001).
      expect((await client.send({ chat: { chatId: OWNER }, text: 'say:the-last-one' }).messages).at(-1)!.ended).toMatchObject({ text: 'the-last-one' });
      await spent.telegram.waitFor(() => spent.telegram.botMessages(OWNER).find((m) => shownText(m) === 'the-last-one'));
      // Its cost is counted before its stream ends: the next message is refused at once.
      expect(await refusal(client.send({ chat: { chatId: OWNER }, text: 'say:one-too-many' }).messages)).toMatchObject({
        code: status.RESOURCE_EXHAUSTED,
        details: expect.stringMatching(/^💸 This chat has spent .* its daily budget/),
      });
      expect(spent.telegram.botMessages(OWNER).some((m) => shownText(m).includes('one-too-many'))).toBe(false);
    } finally {
      client.close();
      await spent.stop();
    }
  });
});

describe('the ChatService while the bridge drains for a restart', () => {
  it('keeps the message for after the restart, says so at once, and the chat gets the answer once the bridge is back', async () => {
    const draining = await startTelegramWorld({
      BRIDGE_API_ADDR: '127.0.0.1:0',
      BRIDGE_API_TOKENS: `ci=${TOKEN}`,
      BRIDGE_API_SCOPES: `ci=${OWNER}`,
      BRIDGE_DRAIN_SECONDS: '30',
    });
    const owner = ownerIn(() => draining, OWNER);
    let client: ChatApiClient | undefined;
    try {
      await draining.bridge.waitForLog(/SubagentService listening on \S+,/);
      client = chatApiClient(/SubagentService listening on (\S+),/.exec(draining.bridge.log())![1]!, TOKEN);
      owner.say('wait-for:go-drain say:finished-in-the-drain');
      await owner.waitText(/^⚙️ claude · working/);
      draining.bridge.kill('SIGTERM');
      await owner.waitText(/🔄 The bridge is restarting: this turn has/);

      const messages = await client.send({ chat: { chatId: OWNER }, text: 'say:after-the-restart' }).messages;
      expect(messages.map((m) => m.event)).toEqual(['accepted', 'ended']);
      expect(messages[0]!.accepted).toMatchObject({ turnId: '', queuePosition: 0 });
      expect(messages[1]!.ended).toMatchObject({ turnId: '', status: 'TURN_STATUS_POSTPONED' });
      const shown = await owner.waitText(/^🔌 ci: say:after-the-restart/);

      await writeFile(join(draining.workdir, 'go-drain'), '');
      await owner.waitText(/^finished-in-the-drain/);
      expect(await draining.bridge.exited).toMatchObject({ code: 0 });
      expect((await draining.cli.invocations()).some((r) => r.prompt.includes('after-the-restart'))).toBe(false);
      await draining.restart();
      const answer = await owner.waitText(/^after-the-restart/);
      expect(answer.replyToMessageId).toBe(shown.messageId);
    } finally {
      client?.close();
      await draining.stop();
    }
  });
});
