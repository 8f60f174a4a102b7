import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/chat/commands/index.ts';
import { chatKey, chatOfKey } from '../../src/kernel/ports/chat.ts';
import { plain } from '../../src/kernel/rich/build.ts';
import { teamsAppManifest } from '../../src/transports/teams/app-manifest.ts';
import { pressedData, teamsMessage } from '../../src/transports/teams/cards.ts';
import { conversationOf, teamsChat } from '../../src/transports/teams/id.ts';
import { coreText } from '../../src/transports/teams/incoming.ts';
import { settingProblems, teamsSettings } from '../../src/transports/teams/settings.ts';

const commands = new Set(COMMANDS.map((c) => c.name));
const bot = { id: '28:bot', name: 'Bridge' };
const mentioned = (text: string) => ({ text, recipient: bot, entities: [{ type: 'mention', text: '<at>Bridge</at>', mentioned: bot }] });

describe('the Teams transport', () => {
  it('makes a reply chain a session of its channel, and a chat key that reads back', () => {
    const chain = teamsChat('19:abc@thread.tacv2;messageid=1700000000000');
    expect(chain).toEqual({ transport: 'teams', chat: '19~abc@thread.tacv2', thread: '1700000000000' });
    expect(conversationOf(chain)).toBe('19:abc@thread.tacv2;messageid=1700000000000');
    expect(chatOfKey(chatKey(chain))).toEqual(chain);
    const personal = teamsChat('a:1xyz');
    expect(conversationOf(personal)).toBe('a:1xyz');
    expect(chatOfKey(chatKey(personal))).toEqual(personal);
  });

  it('reads `@bot status` as /status, a prompt as itself, and undoes Teams markup', () => {
    expect(coreText(mentioned('<at>Bridge</at> status'), commands)).toBe('/status');
    expect(coreText(mentioned('<at>Bridge</at> spawn "x"'), commands)).toBe('/spawn "x"');
    expect(coreText(mentioned('<at>Bridge</at> fix the build &amp; run it'), commands)).toBe('fix the build & run it');
    expect(coreText({ text: '/status', recipient: bot }, commands)).toBe('/status');
    expect(coreText({ text: 'ask <at>Ann</at> first', recipient: bot }, commands)).toBe('ask @Ann first');
  });

  it('shows buttons as an Adaptive Card whose presses carry their data back, and clears them on an update without', () => {
    const card = teamsMessage(plain('Allow Bash?'), [[{ text: '✅ Allow', data: 'a:1' }], [{ text: 'Docs', data: '', opens: { url: 'https://x.example' } }]]);
    const body = (card.attachments![0]!.content as { body: { type: string; actions?: { type: string; data?: unknown }[] }[] }).body;
    expect(body.map((e) => e.type)).toEqual(['TextBlock', 'ActionSet', 'ActionSet']);
    const submit = body[1]!.actions![0]!;
    expect(submit.type).toBe('Action.Submit');
    expect(pressedData((submit.data as { msteams: { value: unknown } }).msteams.value)).toBe('a:1');
    expect(body[2]!.actions![0]!.type).toBe('Action.OpenUrl');
    expect(teamsMessage(plain('done'))).toMatchObject({ text: 'done', textFormat: 'xml', attachments: [] });
  });

  it('says what is wrong with its settings, without their values', () => {
    expect(settingProblems(teamsSettings({ env: {} }))).toEqual([
      expect.stringMatching(/^TEAMS_APP_ID is not set/),
      expect.stringMatching(/^TEAMS_APP_PASSWORD is not set/),
      expect.stringMatching(/^TEAMS_TENANT_ID is not set/),
    ]);
    const wrong = settingProblems(
      teamsSettings({ env: { TEAMS_APP_ID: 'secret-ish', TEAMS_APP_PASSWORD: 'p', TEAMS_TENANT_ID: 't', TEAMS_LOGIN_URL: 'http://x' } }),
    );
    expect(wrong.join('\n')).not.toMatch(/secret-ish/);
    expect(wrong).toHaveLength(3);
  });

  it("makes the app's manifest: the bot in every scope, a menu of at most ten commands", () => {
    const manifest = teamsAppManifest(COMMANDS, { appId: '11111111-2222-3333-4444-555555555555', host: 'bridge.example.org' }) as {
      bots: { botId: string; scopes: string[]; commandLists: { commands: { title: string; description: string }[] }[] }[];
      validDomains: string[];
    };
    const [bot] = manifest.bots;
    expect(bot!.scopes).toEqual(['personal', 'team', 'groupChat']);
    expect(bot!.commandLists[0]!.commands.length).toBeLessThanOrEqual(10);
    expect(bot!.commandLists[0]!.commands.every((c) => c.title.length <= 32 && c.description.length <= 128)).toBe(true);
    expect(manifest.validDomains).toEqual(['bridge.example.org']);
  });
});
