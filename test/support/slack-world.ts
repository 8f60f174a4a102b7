import { COMMANDS } from '../../src/commands/index.ts';
import { slackAppManifest } from '../../src/slack/app-manifest.ts';
import { FakeSlack, type FakeSlackOptions, type StoredMessage } from './fake-slack/index.ts';
import { startBridgeProcess, tempDir, type BridgeProcess } from './bridge-process.ts';
import { fakeCliWorld, type FakeCliWorld } from './fake-cli.ts';
import { shownText } from './telegram-world.ts';

/**
 * One test world on Slack: the Slack twin with a workspace (Ada the owner, Bob, and #general
 * with both and the bot), the fake CLI, and the bridge as a real process started with Slack's
 * settings alone, over real Socket Mode.
 */
export interface SlackWorld {
  slack: FakeSlack;
  cli: FakeCliWorld;
  ada: string;
  bob: string;
  general: string;
  dataDir: string;
  workdir: string;
  env: Record<string, string>;
  bridge: BridgeProcess;
  restart(signal?: NodeJS.Signals): Promise<BridgeProcess>;
  stop(): Promise<void>;
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
  const cli = await fakeCliWorld();
  const data = await tempDir('bridge-data-');
  const work = await tempDir('bridge-work-');
  const env: Record<string, string> = {
    ...(cli.env as Record<string, string>),
    SLACK_BOT_TOKEN: slack.botToken,
    SLACK_APP_TOKEN: slack.appToken,
    SLACK_API_URL: slack.apiUrl,
    BRIDGE_ALLOWED_USERS: `slack:${ada}`,
    BRIDGE_DATA_DIR: data.path,
    BRIDGE_WORKDIR: work.path,
    BRIDGE_DRAIN_SECONDS: '0',
    ...extraEnv,
  };
  // Only Slack's settings: nothing of the machine's own chat apps.
  for (const name of Object.keys(env)) if (/^(TELEGRAM|DISCORD)_/.test(name)) delete env[name];
  const world: SlackWorld = {
    slack,
    cli,
    ada,
    bob,
    general,
    dataDir: data.path,
    workdir: work.path,
    env,
    bridge: await running(env),
    async restart(signal = 'SIGTERM') {
      world.bridge.kill(signal);
      await world.bridge.exited;
      world.bridge = await running(env);
      return world.bridge;
    },
    async stop() {
      world.bridge.kill('SIGTERM');
      await world.bridge.exited;
      await slack.close();
      await Promise.all([cli.cleanup(), data.remove(), work.remove()]);
    },
  };
  // Socket Mode: connected once the bridge is up; the Events API needs no connection.
  if (!env.SLACK_SIGNING_SECRET) await slack.waitFor(() => slack.socket.openConnections > 0, 20_000);
  return world;
}

async function running(env: Record<string, string>): Promise<BridgeProcess> {
  const bridge = startBridgeProcess(env);
  await bridge.waitForLog(/jsonl-bridge running as/);
  return bridge;
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
