import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { slackManifestFromCode } from '../../scripts/manifest-from-code.ts';
import { COMMANDS } from '../../src/chat/commands/index.ts';
import { BOT_EVENTS, slackAppManifest } from '../../src/transports/slack/app-manifest.ts';
import { DOWNLOAD_SCOPE, REQUIRED_SCOPES } from '../support/fake-slack/methods.ts';

const SLACK_SRC = fileURLToPath(new URL('../../src/transports/slack/', import.meta.url));
const manifestPath = new URL('../../slack-app-manifest.yml', import.meta.url);

/** Every Web API method the transport's code calls (`web.chat.postMessage(`, `filesUploadV2(` …). */
async function methodsCalled(): Promise<Set<string>> {
  const methods = new Set<string>();
  for (const name of await readdir(SLACK_SRC, { recursive: true })) {
    if (!name.endsWith('.ts')) continue;
    const text = await readFile(join(SLACK_SRC, name), 'utf8');
    for (const [, ns, method] of text.matchAll(/\.(chat|reactions|conversations|users|files|auth|apps)\.(\w+)\(/g)) methods.add(`${ns}.${method}`);
    // files.uploadV2 is three calls; the file people send is fetched with the bot token.
    if (text.includes('filesUploadV2(')) ['files.getUploadURLExternal', 'files.completeUploadExternal'].forEach((m) => methods.add(m));
  }
  return methods;
}

describe('the Slack app manifest', () => {
  it('slack-app-manifest.yml is what the code makes: `npm run manifest` rewrites it', async () => {
    expect(await readFile(manifestPath, 'utf8'), 'slack-app-manifest.yml is stale: run `npm run manifest`').toBe(await slackManifestFromCode());
  });

  it('asks for every scope the transport calls need (as Slack documents them), Socket Mode, interactivity and the one /bridge command', async () => {
    const manifest = parse(await readFile(manifestPath, 'utf8')) as {
      oauth_config: { scopes: { bot: string[] } };
      settings: { socket_mode_enabled: boolean; interactivity: { is_enabled: boolean }; event_subscriptions: { bot_events: string[] } };
      features: { slash_commands: { command: string }[] };
    };
    const granted = new Set(manifest.oauth_config.scopes.bot);
    const called = await methodsCalled();
    expect(called).toContain('chat.postMessage');
    expect(called).toContain('conversations.members');
    const missing: string[] = [];
    for (const method of called) {
      if (method === 'auth.test' || method === 'apps.connections.open') continue;
      const scopeOf = REQUIRED_SCOPES[method];
      expect(scopeOf, `${method}: the twin does not know it`).toBeDefined();
      for (const channel of ['C0', 'G0', 'D0']) {
        const needed = scopeOf!({ channel });
        if (needed && !granted.has(needed)) missing.push(`${method} (${channel}…): ${needed}`);
      }
    }
    expect(missing).toEqual([]);
    expect(granted).toContain(DOWNLOAD_SCOPE);
    expect(granted).toContain('commands');
    for (const [event, scope] of Object.entries(BOT_EVENTS)) {
      expect(manifest.settings.event_subscriptions.bot_events).toContain(event);
      expect(granted).toContain(scope);
    }
    expect(manifest.settings.socket_mode_enabled).toBe(true);
    expect(manifest.settings.interactivity.is_enabled).toBe(true);
    expect(manifest.features.slash_commands.map((c) => c.command)).toEqual(['/bridge']);
  });

  it('grants nothing the bridge does not use', () => {
    const bot = (slackAppManifest(COMMANDS) as { oauth_config: { scopes: { bot: string[] } } }).oauth_config.scopes.bot;
    expect(bot.filter((scope) => /admin|:write\.customize|users:read\.email|chat:write\.public/.test(scope))).toEqual([]);
  });
});
