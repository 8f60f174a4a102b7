import { startBridgeWorld, type BridgeWorld } from './bridge-world.ts';
import { FakeDiscord, type FakeDiscordOptions } from './fake-discord/index.ts';

/** The owner, Ada, by her Discord id. */
export const ADA = '1300000000000000111';
export const STRANGER = '1300000000000000999';

/**
 * A bot message as a reader takes it: a quick turn's answer takes its progress message's place
 * with the turn's stats as a last line (`✅ 0:01 · 2 steps · …`), which this leaves out.
 */
export function shownContent(message: { content: string }): string {
  return unescaped(message.content).replace(/\n\n[_*]?[✅❌⏹⌛] \d+:\d\d(:\d\d)? · [^\n]*$/, '');
}

/** How many paragraphs the fake CLI's `long:<chars>` answer has (its longMarkdown). */
export function paragraphsIn(chars: number): number {
  let count = 0;
  for (let total = 0; total < chars;) {
    count++;
    total += `**Paragraph ${count}.** ${'The quick brown fox jumps over the lazy dog. '.repeat(6).trim()} \`code_${count}\``.length + 2;
  }
  return count;
}

/** Markdown's escapes taken out: `BRIDGE\\_ALLOWED\\_USERS` reads BRIDGE_ALLOWED_USERS. */
export function unescaped(content: string): string {
  return content.replace(/\\([\\*_~`|[\]<>#-])/g, '$1');
}

/**
 * One test world on Discord: the fake Discord, the fake CLI, a data and a work directory, and
 * the bridge running as a real process against them with only Discord's settings.
 */
export interface DiscordWorld extends BridgeWorld {
  discord: FakeDiscord;
}

export async function startDiscordWorld(extraEnv: Record<string, string> = {}, options: FakeDiscordOptions = {}): Promise<DiscordWorld> {
  const discord = await FakeDiscord.start(options);
  discord.addMember(ADA, 'Ada');
  const world = await startBridgeWorld({
    env: { DISCORD_BOT_TOKEN: discord.token, DISCORD_API_URL: discord.apiUrl, BRIDGE_ALLOWED_USERS: `discord:${ADA}`, ...extraEnv },
    ready: (bridge) => bridge.waitForLog(/connected to Discord's gateway/, 30_000),
    close: () => discord.close(),
  });
  return Object.assign(world, { discord });
}
