import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkSlack } from '../../src/transports/slack/reach.ts';
import { slackDownloads } from '../../src/transports/slack/attachments.ts';
import { slackSettings } from '../../src/transports/slack/settings.ts';
import { FakeSlack } from '../support/fake-slack/index.ts';

let slack: FakeSlack;
beforeAll(async () => (slack = await FakeSlack.start()));
afterAll(() => slack.close());

const env = (extra: Record<string, string> = {}) => ({
  SLACK_BOT_TOKEN: slack.botToken,
  SLACK_APP_TOKEN: slack.appToken,
  SLACK_API_URL: slack.apiUrl,
  ...extra,
});

describe("npm run doctor's Slack lines", () => {
  it('pass with both tokens, naming the bot and its workspace', async () => {
    expect(await checkSlack(slackSettings({ env: env() }))).toEqual([
      { ok: true, subject: 'Slack bot token', found: '@bridge in fake-team (bot user U0FAKEBOT)' },
      { ok: true, subject: 'Slack app token', found: 'Socket Mode can connect' },
    ]);
  });

  it('say which token Slack refused, or which is missing or malformed, without its value', async () => {
    const [bot] = await checkSlack(slackSettings({ env: env({ SLACK_BOT_TOKEN: 'xoxb-wrong-secret' }) }));
    expect(bot).toMatchObject({ ok: false, subject: 'Slack bot token', found: 'refused by Slack (invalid_auth)' });
    const [, app] = await checkSlack(slackSettings({ env: env({ SLACK_APP_TOKEN: 'xapp-wrong-secret' }) }));
    expect(app).toMatchObject({ ok: false, subject: 'Slack app token', found: 'refused by Slack (invalid_auth)' });
    const malformed = await checkSlack(slackSettings({ env: env({ SLACK_BOT_TOKEN: 'xapp-swapped-secret', SLACK_APP_TOKEN: '' }) }));
    expect(malformed.map((r) => r.found)).toEqual([
      expect.stringMatching(/^SLACK_BOT_TOKEN: expected the app's bot token \(xoxb-…/),
      expect.stringMatching(/^SLACK_APP_TOKEN is not set/),
    ]);
    expect(JSON.stringify(malformed)).not.toContain('swapped-secret');
  });
});

describe('files people send in Slack', () => {
  it('are fetched with the bot token from Slack only: a URL elsewhere never gets the token', async () => {
    const downloads = slackDownloads(slack.botToken, slack.apiUrl);
    const dir = await mkdtemp(join(tmpdir(), 'slack-downloads-'));
    try {
      await expect(downloads.download({ kind: 'document', id: 'https://evil.test/steal' }, join(dir, 'a'))).rejects.toThrow(
        "its address (evil.test) is not Slack's",
      );
      await expect(downloads.download({ kind: 'document', id: 'http://files.slack.com/x' }, join(dir, 'b'))).rejects.toThrow(/is not Slack's/);
      // Slack's sign-in page in the file's place is an error, not the file.
      await expect(downloads.download({ kind: 'document', id: `${slack.origin}/files-pri/T0FAKE-F404/download/x.txt` }, join(dir, 'c'))).rejects.toThrow(
        /sign-in page/,
      );
      const user = slack.addUser({ name: 'ada' }).id;
      const file = slack.dm({ user, text: '', files: [{ name: 'n.txt', content: 'bytes' }] }).message.files[0]!;
      await downloads.download({ kind: 'document', id: `${slack.origin}/files-pri/T0FAKE-${file}/download/n.txt` }, join(dir, 'd'));
      expect(await readFile(join(dir, 'd'), 'utf8')).toBe('bytes');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
