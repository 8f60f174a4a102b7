import { formatDuration } from '../../work/presentation/progress.ts';

/**
 * Why the bridge drains. `restart`: a service manager's SIGTERM to a bridge serving chat apps,
 * most often a restart or a deploy, so its chats hear it is restarting. `stop`: someone leaving
 * (Ctrl-C, or a bridge in a terminal), who is not restarting anything: its chats hear it stops,
 * and their work goes on when it next starts.
 */
export type DrainReason = 'restart' | 'stop';

/**
 * What the chats hear of a drain: under the progress of a turn at work as it begins (`turn`), to
 * a message that came during it, kept for after it (`kept`), and why work its end stopped was
 * stopped (that turn's last words: `stopped`).
 */
export const DRAIN_WORDS: Record<DrainReason, { turn(drainMs: number): string; kept: string; stopped: string }> = {
  restart: {
    turn: (ms) => `🔄 The bridge is restarting: this turn has ${formatDuration(ms)} to finish, or it goes on after the restart.`,
    kept: '🔄 The bridge is restarting: your message is kept, and runs as soon as it is back.',
    stopped: 'the bridge is restarting: this goes on once it is back',
  },
  stop: {
    turn: (ms) => `⏸ The bridge is stopping: this turn has ${formatDuration(ms)} to finish, or it goes on when the bridge next starts.`,
    kept: '⏸ The bridge is stopping: your message is kept, and runs when the bridge next starts.',
    stopped: 'the bridge stopped: this goes on when it next starts',
  },
};
