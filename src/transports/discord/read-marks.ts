import { join } from 'node:path';
import { ConfigError } from '../../kernel/errors/config-error.ts';
import { KeptStrings } from '../serving/kept-strings.ts';

/** Channels remembered at most: the ones written in most recently are kept. */
const MAX_CHANNELS = 500;

/**
 * The newest message the bridge took in each Discord channel it answers in (DMs, channels
 * that mention it, threads), on disk: channel → message. Discord's gateway gives nothing again
 * after a restart: what was written in those channels meanwhile is fetched from there on and
 * handled (the bridge takes each message once, by its id). A file that cannot be written stops
 * the start: without it, a restart loses what came meanwhile.
 */
export async function openReadMarks(dataDir: string): Promise<KeptStrings> {
  const file = join(dataDir, 'discord-read-marks.json');
  const marks = await KeptStrings.open(file, MAX_CHANNELS, (channel, message) => /^\d+$/.test(channel) && /^\d+$/.test(message));
  await marks.write().catch((error: Error) => {
    throw new ConfigError(`${file} cannot be written (${error.message}): the bridge keeps there what it took from Discord`);
  });
  return marks;
}

/** `message` was taken in `channel`: written soon, never moving back. */
export function markRead(marks: KeptStrings, channel: string, message: string): void {
  const held = marks.get(channel);
  if (held === undefined || BigInt(held) < BigInt(message)) void marks.set(channel, message).catch(() => {});
}
