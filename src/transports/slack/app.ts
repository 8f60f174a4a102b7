import { App, LogLevel, type Logger, type Receiver } from '@slack/bolt';
import type { WebClient } from '@slack/web-api';
import { delay } from '../../kernel/concurrency/delay.ts';
import { KeyedSerializer } from '../../kernel/concurrency/keyed-serializer.ts';
import type { Log } from '../../kernel/log/logger.ts';
import type { TransportHost } from '../../kernel/ports/transport.ts';
import { chatKey, type ChatRef, type IncomingMessage } from '../../kernel/ports/chat.ts';
import { attachmentsOf, type SlackEventFile } from './attachments.ts';
import { isDirectMessage, orderOfTs, slackChat, slackPerson } from './id.ts';
import { commandNames, slashCommand } from '../serving/incoming.ts';
import { addressedToAnother, coreText, mentions } from './incoming-text.ts';
import type { SlackNames } from './members.ts';
import type { SlackIdentity } from './reach.ts';
import type { ReadySlackSettings } from './settings.ts';
import { type SeenEvents } from './seen-events.ts';
import type { KnownThreads } from './threads.ts';

/** A message event as the bridge reads it. */
interface MessageEvent {
  subtype?: string;
  channel: string;
  channel_type?: string;
  user?: string;
  /** The workspace of whoever wrote it: another one's in a channel shared with it (Slack Connect). */
  user_team?: string;
  team?: string;
  bot_id?: string;
  bot_profile?: unknown;
  app_id?: string;
  text?: string;
  ts: string;
  thread_ts?: string;
  files?: SlackEventFile[];
}

/** Message subtypes that are people writing; the rest (edits, joins, deletions, bots' messages) are not for the agent. */
const WRITTEN = new Set([undefined, 'file_share', 'thread_broadcast']);

/** Whether a person wrote it: an app or bot (this one too) is marked by any of these, not always by `bot_id`. */
function writtenByPerson(message: MessageEvent, me: SlackIdentity): boolean {
  return (
    WRITTEN.has(message.subtype) && message.user !== undefined && message.user !== me.botUserId && !message.bot_id && !message.bot_profile && !message.app_id
  );
}

export interface SlackAppParts {
  settings: ReadySlackSettings;
  me: SlackIdentity;
  host: TransportHost;
  web: WebClient;
  names: SlackNames;
  threads: KnownThreads;
  seen: SeenEvents;
  log: Log;
  /** The Events API's receiver; none: Socket Mode. */
  receiver?: Receiver;
}

/**
 * Bolt, wired to the bridge: every event and action is acknowledged first (Bolt acks events
 * itself before the listener; commands and presses ack as their first step), and the work goes
 * on after, in order per chat, so nothing waits on a turn and Slack never retries for want of
 * an ack. DMs are all for the bot; in channels, a mention starts (or joins) a thread that is its
 * own session, and later replies there need none (but those that open by addressing someone else).
 */
export function createSlackApp(parts: SlackAppParts): App {
  const { settings, me, host, web, names, threads, seen, log } = parts;
  const app = new App({
    token: settings.botToken,
    botId: me.botId,
    botUserId: me.botUserId,
    // Checked in connect(); Bolt would ask again before its first event.
    tokenVerificationEnabled: false,
    clientOptions: { slackApiUrl: settings.apiUrl },
    logger: boltLogger(log),
    logLevel: LogLevel.WARN,
    ...(parts.receiver
      ? { receiver: parts.receiver }
      : settings.receiving.mode === 'socket'
        ? {
            socketMode: true,
            appToken: settings.receiving.appToken,
            // Bolt builds its Socket Mode client from these: apps.connections.open is asked at the same API.
            installerOptions: { clientOptions: { slackApiUrl: settings.apiUrl } },
          }
        : {}),
  });
  const inOrder = new KeyedSerializer();
  const later = (key: string, work: () => Promise<void>) =>
    void inOrder.run(key, work).catch((error: unknown) => log.error({ err: error, chat: key }, 'handling a Slack message failed'));

  app.event('message', async ({ event, body }) => {
    const message = event as unknown as MessageEvent;
    if (!writtenByPerson(message, me)) return;
    if (!(await seen.first(body.event_id ?? `${message.channel}:${message.ts}`))) return;
    const address = await addressOf(message);
    if (!address) return;
    later(`message:${chatKey(address)}`, async () => {
      const user = slackPerson(message.user!, message.user_team ?? message.team, me.teamId, await names.person(message.user!));
      const attachments = attachmentsOf(message.files);
      const incoming: IncomingMessage = {
        address,
        user,
        text: coreText(message.text ?? '', me.botUserId, commandNames(host)),
        messageId: message.ts,
        order: orderOfTs(message.ts),
        ...(attachments.length ? { attachments } : {}),
        ...(isDirectMessage(message.channel) ? { private: true } : {}),
        chatTitle: await names.conversation(message.channel),
      };
      await host.handleMessage(incoming);
    });
  });

  /** Where a message goes, or undefined when it is not for the bot (a channel message that neither mentions it nor is in its thread). */
  async function addressOf(message: MessageEvent): Promise<ChatRef | undefined> {
    if (isDirectMessage(message.channel) || message.channel_type === 'im') return slackChat(message.channel, message.thread_ts);
    const root = message.thread_ts ?? message.ts;
    if (mentions(message.text ?? '', me.botUserId)) {
      await threads.add(message.channel, root);
      return slackChat(message.channel, root);
    }
    // In the bot's thread every reply is for it, but one that opens by addressing someone else.
    if (!message.thread_ts || !threads.has(message.channel, message.thread_ts) || addressedToAnother(message.text ?? '', me.botUserId)) return undefined;
    return slackChat(message.channel, message.thread_ts);
  }

  app.command(/.*/, async ({ command, ack }) => {
    if (!(await seen.first(command.trigger_id))) return ack();
    const used = slashCommand(command.text, command.command, commandNames(host));
    if ('unknown' in used) return ack({ response_type: 'ephemeral', text: used.unknown });
    // The answer goes to the channel: a channel the bot is not in would refuse it.
    if (!isDirectMessage(command.channel_id) && (await Promise.race([names.botIsIn(command.channel_id), delay(COMMAND_CHECK_MS)])) === false) {
      await ack({ response_type: 'ephemeral', text: `The bridge is not in this channel: invite it (\`/invite @${me.name}\`), or write to it directly.` });
      return;
    }
    await ack();
    const address = slackChat(command.channel_id);
    later(`message:${chatKey(address)}`, async () => {
      const name = await names.person(command.user_id);
      await host.handleMessage({
        address,
        user: slackPerson(command.user_id, (command as { user_team_id?: string }).user_team_id ?? command.team_id, me.teamId, name ?? command.user_name),
        text: used.command,
        ...(isDirectMessage(command.channel_id) ? { private: true } : {}),
        chatTitle: await names.conversation(command.channel_id),
      });
    });
  });

  app.action(/.*/, async ({ ack, body, action }) => {
    await ack();
    if (!(await seen.first('trigger_id' in body ? body.trigger_id : undefined))) return;
    if (body.type !== 'block_actions' || action.type !== 'button' || !('value' in action) || action.value === undefined) return;
    const container = body.container as { channel_id?: string; message_ts?: string; thread_ts?: string };
    if (!container.channel_id || !container.message_ts) return;
    const address = slackChat(container.channel_id, container.thread_ts);
    const user = body.user.id;
    const team = (body.user as { team_id?: string }).team_id ?? body.team?.id;
    const data = action.value;
    later(`press:${chatKey(address)}`, async () => {
      const answer = await host.handleButton({
        address,
        user: slackPerson(user, team, me.teamId, await names.person(user)),
        data,
        messageId: container.message_ts!,
      });
      if (!answer.text) return;
      await web.chat.postEphemeral({
        channel: container.channel_id!,
        user,
        text: answer.text,
        ...(container.thread_ts ? { thread_ts: container.thread_ts } : {}),
      });
    });
  });

  app.error(async (error) => {
    log.error({ err: error }, 'Slack: handling an event failed');
  });
  return app;
}

/** How long a command waits to learn whether the bot is in its channel: its ack must reach Slack within 3 s. */
const COMMAND_CHECK_MS = 1500;

/** Bolt's and its Socket Mode client's lines, in the bridge's log. */
function boltLogger(log: Log): Logger {
  const quiet = () => {};
  return {
    debug: quiet,
    info: quiet,
    warn: (...msg: unknown[]) => log.warn(`Slack: ${msg.map(String).join(' ')}`),
    error: (...msg: unknown[]) => log.error(`Slack: ${msg.map(String).join(' ')}`),
    // Warnings and errors, whatever level it is set to.
    setLevel: quiet,
    getLevel: () => LogLevel.WARN,
    setName: quiet,
  };
}
