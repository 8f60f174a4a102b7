import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { TRANSPORTS } from '../../src/kernel/known-transports.ts';
import { loadTransport } from '../../src/transports/serving/load.ts';
import { BUTTON_PAYLOAD_BYTES, type ChatCapabilities } from '../../src/kernel/ports/capabilities.ts';
import { idButton } from '../../src/kernel/ports/buttons.ts';
import { CONSOLE_CAPABILITIES } from '../../src/transports/console/outbound.ts';
import { DISCORD_CAPABILITIES } from '../../src/transports/discord/capabilities.ts';
import { MATRIX_CAPABILITIES } from '../../src/transports/matrix/capabilities.ts';
import { MATTERMOST_CAPABILITIES } from '../../src/transports/mattermost/capabilities.ts';
import { SLACK_CAPABILITIES } from '../../src/transports/slack/capabilities.ts';
import { TEAMS_CAPABILITIES } from '../../src/transports/teams/capabilities.ts';
import { TELEGRAM_CAPABILITIES } from '../../src/transports/telegram/capabilities.ts';
import { WEB_CAPABILITIES } from '../../src/surfaces/web/chat/web-outbound.ts';

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));

/** Where a transport may be named: its own folder, and the one list of transports. */
const MAY_NAME = ['kernel/known-transports.ts'];

async function sources(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((entry) => entry.isFile() && entry.name.endsWith('.ts')).map((entry) => join(entry.parentPath, entry.name));
}

describe('the transports', () => {
  it.each(['telegram', 'slack', 'discord', 'mattermost', 'matrix'])(
    'are named only in their own folders: nothing else in src/ knows %s, in code or in comments',
    async (app) => {
      const naming: string[] = [];
      for (const file of await sources(SRC)) {
        const path = relative(SRC, file);
        if (path.startsWith(`transports/${app}/`) || MAY_NAME.includes(path)) continue;
        (await readFile(file, 'utf8')).split('\n').forEach((line, i) => {
          if (new RegExp(app, 'i').test(line)) naming.push(`src/${path}:${i + 1}: ${line.trim()}`);
        });
      }
      expect(naming).toEqual([]);
    },
  );

  it('are each a folder whose transport.ts exports its kind, listed once by the id its chats carry', async () => {
    expect(new Set(TRANSPORTS.map((t) => t.id)).size).toBe(TRANSPORTS.length);
    for (const known of TRANSPORTS) {
      const kind = await loadTransport(known);
      expect(kind.id, `src/${known.folder}/transport.ts`).toBe(known.id);
    }
  });

  it('declare capabilities the core keeps to: every button the core makes fits each', () => {
    const declared: Record<string, ChatCapabilities> = {
      telegram: TELEGRAM_CAPABILITIES,
      slack: SLACK_CAPABILITIES,
      discord: DISCORD_CAPABILITIES,
      mattermost: MATTERMOST_CAPABILITIES,
      teams: TEAMS_CAPABILITIES,
      matrix: MATRIX_CAPABILITIES,
      web: WEB_CAPABILITIES,
      console: CONSOLE_CAPABILITIES,
    };
    expect(Object.keys(declared).sort()).toEqual(TRANSPORTS.map((t) => t.id).sort());
    for (const [id, capabilities] of Object.entries(declared)) {
      expect(capabilities.buttonPayloadBytes, id).toBeGreaterThanOrEqual(BUTTON_PAYLOAD_BYTES);
      expect(capabilities.messageChars, id).toBeGreaterThan(1000);
      expect(capabilities.uploadBytes, id).toBeGreaterThanOrEqual(capabilities.photoBytes);
    }
    expect(() => idButton('stop').button('Stop', 'x'.repeat(60))).toThrow(/past 64/);
  });
});
