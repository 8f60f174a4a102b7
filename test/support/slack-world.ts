import { COMMANDS } from '../../src/chat/commands/index.ts';
import { slackAppManifest } from '../../src/transports/slack/app-manifest.ts';
import { FakeSlack, type FakeSlackOptions, type StoredMessage } from './fake-slack/index.ts';
import { startBridgeWorld, type BridgeWorld } from './bridge-world.ts';
import { shownText } from './telegram-world.ts';

/**
 * One test world on Slack: the Slack twin with a workspace (Ada the owner, Bob, and #general
 * with both and the bot), the fake CLI, and the bridge as a real process started with Slack's
 * settings alone, over real Socket Mode.
 */
export interface SlackWorld extends BridgeWorld {
  slack: FakeSlack;
  ada: string;
  bob: string;
  general: string;
}

export async function startSlackWorld(extraEnv: Record<string, string> = {}, options: FakeSlackOptions = {}): Promise<SlackWorld> {
  // The bot has the scopes its manifest asks for, and no more: a call the manifest forgot fails here as in Slack.
  const slack = await FakeSlack.start({
    scopes: (slackAppManifest(COMMANDS) as { oauth_config: { scopes: { bot: string[] } } }).oauth_config.scopes.bot,
    ...options,
  });
  const ada = slack.addUser({ name: 'ada', realName: 'Ada Lovelace', displayName: 'Ada' }).id;
  const bob = slack.addUser({ name: 'bob', realName: 'Bob Babbage' }).id;
  const general = slack.addChannel({ name: 'general', members: [ada, bob] }).id;
  const env: Record<string, string> = {
    SLACK_BOT_TOKEN: slack.botToken,
    SLACK_APP_TOKEN: slack.appToken,
    SLACK_API_URL: slack.apiUrl,
    BRIDGE_ALLOWED_USERS: `slack:${ada}`,
    ...extraEnv,
  };
  const world = await startBridgeWorld({
    env,
    // Socket Mode: connected once the bridge is up; the Events API needs no connection.
    ready: async (bridge) => {
      await bridge.waitForLog(/jsonl-bridge running as/);
      if (!env.SLACK_SIGNING_SECRET) await slack.waitFor(() => slack.socket.openConnections > 0, 20_000);
    },
    close: () => slack.close(),
  });
  return Object.assign(world, { slack, ada, bob, general });
}

/** A bot message as a reader takes it (without a quick turn's stats line, which Slack shows in italics). */
export function slackShown(message: StoredMessage): string {
  return shownText({ text: message.text.replace(/\n\n_([✅❌⏹⌛] [^\n]*)_$/, '\n\n$1') }).replace(/^\*([^*\n]+)\*/, '$1');
}

/** The bot's messages in the channel (or thread), those after `after` (a message's ts) only when given. */
export function botMessagesAfter(world: SlackWorld, channel: string, options: { thread?: string; after?: string } = {}): StoredMessage[] {
  return world.slack.botMessages(channel, options.thread).filter((m) => options.after === undefined || m.ts > options.after);
}

/** The first bot message in the channel (or thread, or after a message) whose shown text matches. */
export function waitForSlackText(
  world: SlackWorld,
  channel: string,
  pattern: RegExp,
  options: { thread?: string; after?: string; timeoutMs?: number } = {},
): Promise<StoredMessage> {
  return world.slack.waitFor(() => botMessagesAfter(world, channel, options).find((m) => pattern.test(slackShown(m))), options.timeoutMs ?? 20_000);
}
