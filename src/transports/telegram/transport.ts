import type { Bot } from 'grammy';
import type { UserFromGetMe } from 'grammy/types';
import type { RunnerHandle } from '@grammyjs/runner';
import { miniApp } from './init-data.ts';
import type { Transport, TransportKind } from '../../kernel/ports/transport.ts';
import { greetAs } from '../serving/reach.ts';
import { createBot, createOutboundApi, startTelegram } from './bot.ts';
import { telegramDownloads } from './attachments.ts';
import { TELEGRAM } from './id.ts';
import { telegramMembers } from './members.ts';
import { TelegramOutbound } from './outbound.ts';
import { checkTelegram, reachTelegram, telegramRoundTrip } from './reach.ts';
import { requireToken, telegramSettings } from './settings.ts';
import { UpdateJournal } from './update-journal.ts';

/**
 * Telegram, through grammY: long polling with the runner, answers through the outbound with
 * its send budget, files fetched from the Bot API. Its settings are TELEGRAM_BOT_TOKEN and
 * TELEGRAM_API_ROOT.
 */
export const telegram: TransportKind = {
  id: TELEGRAM,
  check: (sources) => checkTelegram(telegramSettings(sources)),
  create(sources): Transport {
    const settings = requireToken(telegramSettings(sources));
    const bot: Bot = createBot(settings);
    let me: UserFromGetMe | undefined;
    let runner: RunnerHandle | undefined;
    let journal: UpdateJournal | undefined;
    let stopped = false;
    const halt = async () => {
      if (runner?.isRunning()) await runner.stop();
    };
    return {
      id: TELEGRAM,
      secrets: [settings.token],
      inApp: miniApp(settings.token),
      out: new TelegramOutbound(createOutboundApi(settings)),
      members: telegramMembers(settings),
      downloads: telegramDownloads(bot.api, settings),
      roundTripMs: telegramRoundTrip(settings),
      async connect(log) {
        journal = await UpdateJournal.open(sources.dataDir);
        me = await reachTelegram(settings, log);
      },
      async serve(host, log) {
        if (stopped) return;
        runner = await startTelegram(bot, me!, host, this.out, log, journal!);
        // Stopped while it started: it takes nothing more from Telegram (what it took is in the journal).
        if (stopped) await halt();
        await runner.task();
      },
      async stop() {
        stopped = true;
        await halt();
      },
      greet: greetAs(() => `as @${me!.username}`),
    };
  },
};

export default telegram;
