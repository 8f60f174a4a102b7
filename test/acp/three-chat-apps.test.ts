import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAKE_ACP_AGENT } from '../support/acp-world.ts';
import { CHAT_APP_TWINS } from '../support/chat-apps/index.ts';
import type { ChatAppTwin } from '../support/chat-apps/chat-app.ts';
import { startChatAppWorld, type ChatAppWorld } from '../support/chat-apps/world.ts';
import { CLI_BINARIES, prepareCliEnv, type CliEnv } from '../support/cli-env.ts';
import { startMockModel, type MockModel } from '../support/mock-model/index.ts';

// One bridge, three chat apps, three ACP agents: a Telegram chat talks to the real Gemini CLI
// (the default), a Slack channel to one agent of clis.json and a Discord channel to another,
// each chat's own process, none answering in another's chat.
let mock: MockModel;
let cliEnv: CliEnv;
let world: ChatAppWorld;
let dir: string;

beforeAll(async () => {
  mock = await startMockModel();
  cliEnv = await prepareCliEnv('gemini', mock.url);
  dir = await mkdtemp(join(tmpdir(), 'three-acp-'));
  const agent = (name: string) => ({ command: FAKE_ACP_AGENT, args: ['--acp'], env: { FAKE_ACP_NAME: name, FAKE_ACP_STATE: join(dir, name) } });
  const apps = await Promise.all(['telegram', 'slack', 'discord'].map((id) => CHAT_APP_TWINS[id]!()));
  world = await startChatAppWorld(
    apps,
    { ...cliEnv.env, BRIDGE_DEFAULT_CLI: 'gemini', BRIDGE_GEMINI_COMMAND: CLI_BINARIES.gemini, BRIDGE_WORKDIR: cliEnv.workdir },
    { 'clis.json': JSON.stringify({ 'acp-one': agent('one'), 'acp-two': agent('two') }) },
  );
}, 120_000);
afterAll(async () => {
  await world?.stop();
  await mock?.close();
  await cliEnv?.cleanup();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const app = (id: string): ChatAppTwin => world.apps.find((twin) => twin.transport === id)!;

describe('three chat apps, each with its own ACP agent, in one bridge', () => {
  it('answers each chat by the agent it chose, and no other', async () => {
    mock.reset((request) => ({ text: request.lastUserText.includes('PING') ? 'PONG from gemini' : '{"next_speaker": "user", "reasoning": "done"}' }));
    const telegram = app('telegram').group(1);
    const slack = app('slack').group(1);
    const discord = app('discord').group(1);
    await slack.command('cli', 'acp-one');
    await slack.waitFor(/acp-one/);
    await discord.command('cli', 'acp-two');
    await discord.waitFor(/acp-two/);

    await Promise.all([telegram.say('PING'), slack.say('hello slack'), discord.say('hello discord')]);
    await telegram.waitFor(/^PONG from gemini/, 90_000);
    await slack.waitFor(/^one echo: hello slack/);
    await discord.waitFor(/^two echo: hello discord/);

    const shown = async (chat: typeof telegram) => (await chat.shown()).map((m) => m.text).join('\n');
    expect(await shown(telegram)).not.toMatch(/echo:/);
    expect(await shown(slack)).not.toMatch(/PONG|two echo/);
    expect(await shown(discord)).not.toMatch(/PONG|one echo/);
  }, 120_000);
});
