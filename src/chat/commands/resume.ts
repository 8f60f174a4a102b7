import { idButton } from '../../kernel/ports/buttons.ts';
import { readSavedSessions } from '../../engine/adapters/saved-sessions.ts';
import { bringIntoHome, homeOutside, scopeHome } from '../../engine/sandbox/walls.ts';
import { asAgent } from '../../engine/process/agent-user.ts';
import type { Button } from '../../kernel/ports/chat.ts';
import { plain } from '../../kernel/rich/index.ts';
import { displayPath } from '../../work/presentation/paths.ts';
import { timeAgo } from '../../work/presentation/relative-time.ts';
import { truncate } from '../../work/presentation/format/index.ts';
import type { SessionEntry } from '../../kernel/store/chat-store.ts';
import type { ChatSession } from '../session/chat-session.ts';
import { outgrows } from '../session/outside-text.ts';
import { UsageError, refuseWhileBusy, type Command, type CommandHost } from '../dispatch/command.ts';

const LISTED = 10;

/** A listed session's button: continues it. */
const RESUME_SESSION = idButton('rs');
/** A session offered: where its CLI saved it outside the chat's walls, when it must be brought in to continue. */
type Offered = SessionEntry & { outside?: string };

/** Sessions to offer: the chat's own and those its CLI saved for the directory, newest first. */
async function sessionsOf(chat: ChatSession, config: CommandHost['config']): Promise<Offered[]> {
  const own = chat.record.sessions ?? [];
  const format = chat.adapter.savedSessions;
  // The CLI keeps its sessions in its user's home: the agent user's, when agents run as one, read as it.
  const agent = asAgent(config.cliEnv, chat.record.workdir);
  const owner = agent.uid !== undefined && agent.gid !== undefined ? { uid: agent.uid, gid: agent.gid } : undefined;
  const saved = format ? await readSavedSessions(format, chat.record.workdir, agent.env, owner) : [];
  // In walls, in the chat's own home (its sandbox uid's): those saved outside (in a terminal) are brought in when chosen.
  const home = scopeHome(chat.record.key);
  const inside = format && home ? await readSavedSessions(format, chat.record.workdir, { HOME: home }, homeOutside(chat.record.key, {})?.owner) : [];
  const byId = new Map<string, Offered>();
  for (const { file, ...session } of saved) byId.set(session.id, { ...session, cli: chat.record.cli, workdir: chat.record.workdir, outside: home && file });
  for (const { file: _file, ...session } of inside) byId.set(session.id, { ...session, cli: chat.record.cli, workdir: chat.record.workdir });
  for (const entry of own) {
    const listed = byId.get(entry.id);
    byId.set(entry.id, { ...listed, ...entry, turns: Math.max(entry.turns, listed?.turns ?? 0) });
  }
  return [...byId.values()].sort((a, b) => b.lastAt - a.lastAt).slice(0, LISTED);
}

async function resume(chat: ChatSession, entry: Offered): Promise<string> {
  refuseWhileBusy(chat);
  const outside = chat.outsideTextOf(entry.id);
  if (outgrows(outside, chat.permissionMode))
    throw new UsageError(
      `That session holds text from ${outside!.from.join(', ')}, which may do no more than ${outside!.ceiling}: it cannot continue in ${chat.permissionMode} mode. /permissions ${outside!.ceiling} first, or start anew.`,
    );
  if (entry.outside && !bringIntoHome(chat.record.key, entry.outside))
    throw new UsageError(`That session was saved outside the chat's sandbox, in ${displayPath(entry.outside)}, where its CLI cannot reach it.`);
  await chat.resume(entry);
  return `▶ The next message continues the ${entry.cli} session "${truncate(entry.firstPrompt, 60)}" (${entry.turns} turn${entry.turns === 1 ? '' : 's'}) in ${displayPath(entry.workdir)}.`;
}

/**
 * /resume: this chat's recent sessions, and those its CLI saved for the chat's directory
 * (started in a terminal, say), newest first; a button or `/resume <n>` continues one.
 */
export const resumeCommand: Command = {
  name: 'resume',
  description: "This chat's recent sessions, and its CLI's own for this directory; continue one",
  usage: '/resume [n]',
  async run({ bot, chat, args, reply }) {
    const sessions = await sessionsOf(chat, bot.config);
    const wanted = args.trim();
    if (wanted) {
      const n = Number(wanted);
      const entry = Number.isInteger(n) && n >= 1 ? sessions[n - 1] : undefined;
      if (!entry)
        throw new UsageError(sessions.length ? `Choose a session from 1 to ${sessions.length}: /resume lists them.` : 'There is no session to resume yet.');
      return plain(await resume(chat, entry));
    }
    if (!sessions.length) return plain('No sessions yet in this chat or, for its CLI, in this directory. Send a message to start one.');
    const now = Date.now();
    const lines = sessions.map((entry, i) => {
      const current = entry.id === chat.record.cliSessionId ? ' (current)' : '';
      return `${i + 1}. ${timeAgo(now - entry.lastAt)} · ${entry.turns} turn${entry.turns === 1 ? '' : 's'} · ${entry.cli} · "${truncate(entry.firstPrompt.replace(/\s+/g, ' '), 70)}" · ${displayPath(entry.workdir)}${current}`;
    });
    const buttons: Button[][] = sessions.map((entry, i) => [
      RESUME_SESSION.button(`▶ ${i + 1}. ${truncate(entry.firstPrompt.replace(/\s+/g, ' '), 30)}`, entry.id),
    ]);
    await reply(plain(`Sessions, newest first\n${lines.join('\n')}\nContinue one with its button or /resume <n>.`), { buttons });
  },
  buttons(on, { bot }) {
    on(RESUME_SESSION, async (press, sessionId) => {
      const chat = bot.chats.get(press.address);
      const entry = (await sessionsOf(chat, bot.config)).find((session) => session.id === sessionId);
      if (!entry) return { text: 'That session is no longer listed.' };
      try {
        const text = await resume(chat, entry);
        await bot.out.send(press.address, plain(text));
        return { text: '▶ Resumed' };
      } catch (error) {
        if (error instanceof UsageError) return { text: error.message, alert: true };
        throw error;
      }
    });
  },
};
