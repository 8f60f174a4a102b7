import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ownerIn, shownText, startTelegramWorld, type TelegramWorld } from '../support/telegram-world.ts';

// Every model key a CLI can hold is a secret the bridge redacts, in whatever the agent prints:
// an agent running without walls (which would hold only a placeholder) echoes the key it holds,
// and neither the chat, nor the transcript, nor the log shows it. The keys are the adapters'
// credentials (and the other CLIs' known ones), a short one of a test included.
let world: TelegramWorld | undefined;
afterEach(async () => {
  await world?.stop();
  world = undefined;
});

const CHAT = -4811;
const { say, waitText } = ownerIn(() => world!, CHAT);

const KEYS = {
  ANTHROPIC_API_KEY: 'sk-ant-api03-echoed-by-the-agent',
  CLAUDE_CODE_OAUTH_TOKEN: 'sk-ant-oat01-held-in-a-login',
  CODEX_API_KEY: 'sk-cx-99',
  GEMINI_API_KEY: 'AIzaSyGeminiKeyOfTheOperator',
};

describe('model keys in what an agent prints', () => {
  it('are redacted from the chat, the transcript and the log, each of them, a short one too', async () => {
    world = await startTelegramWorld({ ...KEYS, BRIDGE_LOG_LEVEL: 'debug' });
    for (const name of Object.keys(KEYS)) {
      say(`print-env:${name}`);
      expect(shownText(await waitText(new RegExp(`^${name}=`)))).toBe(`${name}=[redacted]`);
    }
    const transcripts = join(world.dataDir, 'transcripts');
    await expect
      .poll(async () => {
        const files = await readdir(transcripts).catch(() => []);
        return (await Promise.all(files.map((file) => readFile(join(transcripts, file), 'utf8')))).join('');
      })
      .toContain('GEMINI_API_KEY=[redacted]');
    const written = [
      ...world.telegram.botMessages(CHAT).map(shownText),
      ...(await Promise.all((await readdir(transcripts)).map((file) => readFile(join(transcripts, file), 'utf8')))),
      world.bridge.stderr(),
      world.bridge.stdout(),
    ].join('\n');
    for (const key of Object.values(KEYS)) expect(written).not.toContain(key);
  }, 60_000);
});
