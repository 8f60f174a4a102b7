import { formatDuration } from '../../work/presentation/progress.ts';

/**
 * Why the bridge drains. `restart`: a service manager's SIGTERM to a bridge serving chat apps,
 * most often a restart or a deploy, so its chats hear it is restarting. `stop`: someone leaving
 * (Ctrl-C, or a bridge in a terminal), who is not restarting anything: its chats hear it stops,
 * and their work goes on when it next starts.
 */
export type DrainReason = 'restart' | 'stop';

export interface DrainWords {
  /** Under the progress of a turn at work, as the drain begins. */
  turn(drainMs: number): string;
  /** To a message that came during the drain, kept for after it. */
  kept: string;
  /** Why work the drain's end stopped was stopped (its turn's last words). */
  stopped: string;
}

export const DRAIN_WORDS: Record<DrainReason, DrainWords> = {
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
