import type { GatewayParts } from './gateway-parts.ts';
import { onMessage } from './incoming.ts';
import { discordCode } from './rest.ts';
import type { KeyedSerializer } from '../../kernel/concurrency/keyed-serializer.ts';

/** A fetch brings at most this many messages: Discord's own page size. */
const PAGE = 100;
/** Answers meaning the channel is gone or closed to the bot: it is read no more. */
const GONE = new Set([10003, 50001]);

/**
 * What was written, while the bridge was away, in the channels it answers in: fetched from
 * each one's read mark (Discord's gateway gives nothing again after a restart) and handled in
 * order, each channel's ahead of what comes live. A message already taken is taken once.
 */
export function catchUp(parts: GatewayParts, serial: KeyedSerializer): void {
  const { client, marks, log } = parts;
  for (const [channelId, after] of marks.entries()) {
    void serial
      .run(`message:${channelId}`, async () => {
        let channel;
        try {
          channel = await client.channels.fetch(channelId);
        } catch (error) {
          const code = discordCode(error);
          if (code !== undefined && GONE.has(code)) return void marks.delete(channelId).catch(() => {});
          throw error;
        }
        if (!channel?.isTextBased()) return;
        const fetched = await channel.messages.fetch({ after, limit: PAGE });
        const missed = [...fetched.values()].filter((m) => m.author.id !== parts.identity.user.id).sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? -1 : 1));
        for (const message of missed) await onMessage(parts, message);
        if (missed.length) log.info({ chat: channelId }, `handled ${missed.length} Discord message(s) sent while the bridge was away`);
      })
      .catch((error: unknown) => log.warn({ err: error, chat: channelId }, 'what came while the bridge was away could not be fetched from Discord'));
  }
}
