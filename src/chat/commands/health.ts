import { execa } from 'execa';
import { megabytes } from '../../engine/files/sizes.ts';
import type { CommandHost } from '../dispatch/command.ts';
import type { HealthSources } from '../dispatch/command-services.ts';

/** Whatever it is asked, /status answers within this: a slow disk or network shows as such. */
const ANSWER_WITHIN_MS = 3000;

/**
 * The bridge's own health, at the end of /status (only allowed users reach a command): how
 * long it has been up, how fast the transport answers, what runs and waits across all chats,
 * and how much its data directory holds. Where the queue's Redis stands is the subagents' row.
 */
export async function healthRows(bot: Pick<CommandHost, 'chats'>, sources: HealthSources): Promise<[string, string][]> {
  const chats = bot.chats.active();
  const turns = chats.filter((chat) => chat.current).length;
  const waiting = chats.reduce((sum, chat) => sum + chat.queued, 0);
  const runs = sources.runs();
  const transports = [...(sources.roundTrips ?? [])];
  const [size, ...roundTrips] = await Promise.all([timed(diskUsage(sources.dataDir)), ...transports.map(([, roundTrip]) => timed(roundTrip()))]);
  return [
    ['Bridge', `up ${uptime(process.uptime() * 1000)}, pid ${process.pid}, Node ${process.versions.node}`],
    ...roundTrips.map((roundTrip, i): [string, string] => [
      `${transports[i]![0].replace(/^./, (first) => first.toUpperCase())} round trip`,
      'value' in roundTrip ? `${Math.round(roundTrip.value)} ms` : roundTrip.failed,
    ]),
    [
      'All chats',
      `${turns} turn${turns === 1 ? '' : 's'} running, ${waiting} message${waiting === 1 ? '' : 's'} waiting; subagents ${runs.running} running, ${runs.queued} queued`,
    ],
    ['Data', `${sources.dataDir}: ${'value' in size ? megabytes(size.value) : size.failed}`],
  ];
}

async function timed<T>(work: Promise<T>): Promise<{ value: T } | { failed: string }> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<{ failed: string }>(
    (resolve) => (timer = setTimeout(() => resolve({ failed: `no answer within ${ANSWER_WITHIN_MS / 1000} s` }), ANSWER_WITHIN_MS)),
  );
  return Promise.race([
    work.then(
      (value) => ({ value }),
      (error: Error) => ({ failed: `failed: ${error.message}` }),
    ),
    late,
  ]).finally(() => clearTimeout(timer));
}

/** What the directory takes on disk, as `du` counts it (fast on many small files, and what an operator would run). */
async function diskUsage(dir: string): Promise<number> {
  const { stdout } = await execa('du', ['-sk', dir], { timeout: ANSWER_WITHIN_MS });
  return Number(stdout.split('\t')[0]) * 1024;
}

function uptime(ms: number): string {
  const minutes = Math.floor(ms / 60_000);
  const [d, h, m] = [Math.floor(minutes / 1440), Math.floor((minutes % 1440) / 60), minutes % 60];
  if (d) return `${d} d ${h} h`;
  if (h) return `${h} h ${m} min`;
  return m ? `${m} min` : `${Math.floor(ms / 1000)} s`;
}
