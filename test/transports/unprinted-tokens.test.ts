import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startBridgeProcess, startDoctorProcess, tempDir, type BridgeProcess } from '../support/bridge-process.ts';
import { REFUSING_PORT } from '../support/free-port.ts';

// A chat app's token is never printed, whatever happens to it: each app's real client library
// (grammY, Bolt, discord.js) fails against a server that is not there, and neither the
// bridge's output, its log file nor the doctor shows the token; a token that cannot be the
// app's stops the start in one line (exit 78), without it.
const TELEGRAM = '7301234567:AAHx-never-printed-telegram-token-0';
const SLACK_BOT = 'xoxb-1234-5678-never-printed-bot-token';
const SLACK_APP = 'xapp-1-A0NEVER-never-printed-app-token';
const DISCORD = `${Buffer.from('81384788765712384').toString('base64url')}.GfAkE1.never-printed-discord-token-0123`;

let running: BridgeProcess | undefined;
let data: { path: string; remove(): Promise<void> } | undefined;
afterEach(async () => {
  running?.kill('SIGKILL');
  await running?.exited;
  await data?.remove();
  running = data = undefined;
});

async function everythingPrinted(bridge: BridgeProcess, dataDir: string): Promise<string> {
  const logFile = await readFile(join(dataDir, 'bridge.log'), 'utf8').catch(() => '');
  return `${bridge.stdout()}\n${bridge.stderr()}\n${logFile}`;
}

async function unreachable(): Promise<string> {
  return `http://127.0.0.1:${REFUSING_PORT}`;
}

const APPS: [string, string[], () => Promise<Record<string, string>>][] = [
  ['Telegram (grammY)', [TELEGRAM], async () => ({ TELEGRAM_BOT_TOKEN: TELEGRAM, TELEGRAM_API_ROOT: await unreachable() })],
  [
    'Slack (Bolt)',
    [SLACK_BOT, SLACK_APP],
    async () => ({ SLACK_BOT_TOKEN: SLACK_BOT, SLACK_APP_TOKEN: SLACK_APP, SLACK_API_URL: `${await unreachable()}/api/` }),
  ],
  ['Discord (discord.js)', [DISCORD], async () => ({ DISCORD_BOT_TOKEN: DISCORD, DISCORD_API_URL: `${await unreachable()}/api` })],
];

describe('chat apps’ tokens are never printed', () => {
  for (const [app, tokens, settings] of APPS)
    it(`${app}: unreachable at start, retried, and the token shows nowhere, nor in the doctor`, async () => {
      data = await tempDir('unprinted-');
      const env = { ...(await settings()), BRIDGE_DATA_DIR: data.path, BRIDGE_ALLOWED_USERS: '42' };
      running = startBridgeProcess(env);
      await running.waitForLog(/is unreachable: .*trying again/, 30_000);
      running.kill('SIGKILL');
      await running.exited;
      const doctor = startDoctorProcess(env);
      await doctor.exited;
      const printed = `${await everythingPrinted(running, data.path)}\n${doctor.stdout()}\n${doctor.stderr()}`;
      expect(printed).toMatch(/unreachable/);
      for (const token of tokens) {
        expect(printed).not.toContain(token);
        expect(printed).not.toContain(encodeURIComponent(token));
      }
    });

  it('a token that cannot be Telegram’s, Slack’s or Discord’s stops the start in one line (exit 78), without the token', async () => {
    for (const [variable, env] of [
      ['TELEGRAM_BOT_TOKEN', { TELEGRAM_BOT_TOKEN: '123:abc' }],
      ['SLACK_BOT_TOKEN', { SLACK_BOT_TOKEN: 'xoxb-1', SLACK_APP_TOKEN: SLACK_APP }],
      ['SLACK_APP_TOKEN', { SLACK_BOT_TOKEN: SLACK_BOT, SLACK_APP_TOKEN: 'xapp-abc' }],
      ['DISCORD_BOT_TOKEN', { DISCORD_BOT_TOKEN: 'short.token' }],
    ] as const) {
      data = await tempDir('unprinted-');
      const bridge = startBridgeProcess({ ...env, BRIDGE_DATA_DIR: data.path });
      expect((await bridge.exited).code).toBe(78);
      const lines = bridge.stderr().trim().split('\n');
      expect(lines).toEqual([expect.stringContaining(`${variable}: expected`)]);
      for (const value of Object.values(env)) if (value.length < 20) expect(bridge.stderr()).not.toContain(value);
      await data.remove();
      data = undefined;
    }
  });
});
