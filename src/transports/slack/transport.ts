import type { App } from '@slack/bolt';
import type { Transport, TransportKind } from '../../kernel/ports/transport.ts';
import { CachedMembers } from '../../work/access/member-cache.ts';
import { greetAs } from '../serving/reach.ts';
import { createSlackApp } from './app.ts';
import { EventsReceiver } from './events-receiver.ts';
import { slackClient } from './client.ts';
import { slackDownloads } from './attachments.ts';
import { SLACK } from './id.ts';
import { membersThrough, SlackNames } from './members.ts';
import { SlackOutbound } from './outbound.ts';
import { checkSlack, reachSlack, slackRoundTrip, type SlackIdentity } from './reach.ts';
import { requireSlack, slackSettings } from './settings.ts';
import { SeenEvents } from './seen-events.ts';
import { KnownThreads } from './threads.ts';

/**
 * Slack, through Bolt: Socket Mode with SLACK_BOT_TOKEN and SLACK_APP_TOKEN (no public URL),
 * answers through the outbound with its per-channel send budget, files fetched with the bot
 * token. SLACK_API_URL points the Web API (and so Socket Mode's apps.connections.open) elsewhere.
 */
const slack: TransportKind = {
  id: SLACK,
  check: (sources) => checkSlack(slackSettings(sources)),
  create(sources): Transport {
    const settings = requireSlack(slackSettings(sources));
    const web = slackClient(settings.botToken, settings.apiUrl);
    // Look-ups a page waits on: no long retries.
    const lookups = slackClient(settings.botToken, settings.apiUrl, { retries: 1, timeoutMs: 10_000 });
    let me: SlackIdentity | undefined;
    let threads: KnownThreads | undefined;
    let seen: SeenEvents | undefined;
    // With a signing secret and no app token: Slack's events come to the bridge's web server.
    const receiver = settings.receiving.mode === 'events' ? new EventsReceiver(settings.receiving.signingSecret) : undefined;
    let app: App | undefined;
    let stopped = false;
    let ended: () => void = () => {};
    return {
      id: SLACK,
      secrets: [settings.botToken, ...(settings.receiving.mode === 'socket' ? [settings.receiving.appToken] : [settings.receiving.signingSecret])],
      out: new SlackOutbound(web, () => me?.name),
      // The answers kept a while, per (chat, person), as every transport's are.
      members: new CachedMembers(membersThrough(lookups)),
      downloads: slackDownloads(settings.botToken, settings.apiUrl),
      roundTripMs: slackRoundTrip(settings),
      routes: receiver?.routes,
      async connect(log) {
        threads = await KnownThreads.open(sources.dataDir);
        seen = await SeenEvents.open(sources.dataDir);
        me = await reachSlack(settings, log);
      },
      async serve(host, log) {
        if (stopped) return;
        if (receiver) receiver.log = log;
        app = createSlackApp({
          settings,
          me: me!,
          host,
          web,
          names: new SlackNames(lookups),
          threads: threads!,
          seen: seen!,
          log,
          receiver,
        });
        const done = new Promise<void>((resolve) => (ended = resolve));
        await app.start();
        // Stopped while it started: it takes nothing more from Slack.
        if (stopped) await app.stop();
        else await done;
      },
      async stop() {
        stopped = true;
        await app?.stop().catch(() => undefined);
        ended();
      },
      greet: greetAs(() => `as @${me!.name} in Slack (${me!.team})`),
    };
  },
};

export default slack;
