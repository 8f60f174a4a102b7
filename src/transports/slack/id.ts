import { chatRef, type ChatRef, type ChatUser } from '../../kernel/ports/chat.ts';
import { personIdOn } from '../serving/incoming.ts';

/** Slack's transport id: what its chats' refs carry (`slack:C0123`), and its people's (`slack:U0123`). */
export const SLACK = 'slack';

/**
 * A Slack conversation (a channel or DM id) as the bridge's ChatRef; a thread is its own chat,
 * named by its root message's `ts`.
 */
export function slackChat(channel: string, threadTs?: string): ChatRef {
  return chatRef(SLACK, channel, threadTs);
}

/** A DM's id starts with D: every message there is for the bot. */
export function isDirectMessage(channel: string): boolean {
  return channel.startsWith('D');
}

/**
 * A message `ts` ("1700000000.000100") as a number that keeps its order: microseconds since the
 * epoch, well within a double's exact integers.
 */
export function orderOfTs(ts: string): number | undefined {
  const match = /^(\d+)\.(\d{1,6})$/.exec(ts);
  return match ? Number(match[1]) * 1_000_000 + Number(match[2]!.padEnd(6, '0')) : undefined;
}

/** `slack:U024BE7LH` → U024BE7LH; a person of another transport has no Slack id. */
export function slackUserId(person: string): string | undefined {
  return personIdOn(SLACK, person, /^[UW][A-Z0-9]+$/);
}

/**
 * A person as the bridge knows them: by their id when they belong to the workspace the app is
 * installed in; one of another workspace (a channel shared through Slack Connect) is
 * `slack:<team>/<user>`, so allowlists take them only where they are named with their team.
 */
export function slackPerson(user: string, team: string | undefined, homeTeam: string, name?: string): ChatUser {
  const foreign = team !== undefined && team !== '' && homeTeam !== '' && team !== homeTeam;
  return { id: user, ...(foreign ? { identity: `${SLACK}:${team}/${user}` } : {}), ...(name ? { name } : {}) };
}
