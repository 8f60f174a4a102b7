import type { Client } from 'discord.js';
import type { Transport, TransportKind } from '../../kernel/ports/transport.ts';
import { CachedMembers } from '../../work/access/member-cache.ts';
import { greetAs, roundTrip } from '../serving/reach.ts';
import { discordDownloads } from './attachments.ts';
import { createClient, startGateway } from './gateway.ts';
import { DISCORD } from './id.ts';
import { PendingInteractions } from './interactions.ts';
import { inviteUrl } from './invite.ts';
import { DmPeople, membersThrough } from './members.ts';
import { MessageContentNotice } from './message-content.ts';
import { DiscordOutbound } from './outbound.ts';
import { checkDiscord, MESSAGE_CONTENT_OFF, reachDiscord, type DiscordIdentity } from './reach.ts';
import { discordRest } from './rest.ts';
import { openReadMarks } from './read-marks.ts';
import type { KeptStrings } from '../serving/kept-strings.ts';
import { discordSettings, requireToken } from './settings.ts';

/**
 * Discord, through discord.js: the gateway for messages, commands and presses, REST (with
 * discord.js's rate-limit queue) for everything the bridge sends. Its settings are
 * DISCORD_BOT_TOKEN and DISCORD_API_URL.
 */
export const discord: TransportKind = {
  id: DISCORD,
  check: (sources) => checkDiscord(discordSettings(sources)),
  create(sources): Transport {
    const settings = requireToken(discordSettings(sources));
    const rest = discordRest(settings);
    const interactions = new PendingInteractions();
    const dmPeople = new DmPeople();
    let identity: DiscordIdentity | undefined;
    let client: Client | undefined;
    let marks: KeptStrings | undefined;
    let stopped = false;
    let ended: (() => void) | undefined;
    const until = new Promise<void>((resolve) => (ended = resolve));
    const where = new URL(settings.apiUrl).host;
    return {
      id: DISCORD,
      secrets: [settings.token],
      out: new DiscordOutbound(rest, interactions, () => identity!.application.id),
      // The answers kept a while, as every transport's are.
      members: new CachedMembers(membersThrough(discordRest(settings, { retries: 0, timeoutMs: 10_000 }), dmPeople)),
      downloads: discordDownloads(),
      roundTripMs: roundTrip(() => discordRest(settings, { retries: 0 }).get('/users/@me')),
      async connect(log) {
        marks = await openReadMarks(sources.dataDir);
        identity = await reachDiscord(discordRest(settings, { retries: 0, timeoutMs: 10_000 }), where, log);
        if (!identity.messageContent) log.warn(`Discord: ${MESSAGE_CONTENT_OFF}`);
      },
      async serve(host, log) {
        if (stopped) return;
        client = createClient(settings, identity!);
        const gateway = await startGateway({
          client,
          token: settings.token,
          identity: identity!,
          host,
          out: this.out,
          interactions,
          dmPeople,
          notice: new MessageContentNotice(identity!.user.username),
          marks: marks!,
          log,
        });
        // Stopped while it logged in: it takes nothing more from Discord.
        if (stopped) await client.destroy();
        await Promise.race([until, gateway.closed]);
      },
      async stop() {
        stopped = true;
        await client?.destroy();
        await marks?.write();
        ended?.();
      },
      greet: greetAs(
        () => `on Discord as @${identity!.user.username}`,
        () => `; invite: ${inviteUrl(identity!.application.id)}`,
      ),
    };
  },
};

export default discord;
