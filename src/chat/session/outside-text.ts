import { stricter, type PermissionMode } from '../../kernel/policy/permission-mode.ts';
import type { OutsideSource, OutsideText } from '../../kernel/store/chat-store.ts';

/** How many senders a session remembers by name (the ceiling keeps the strictest of all). */
const SOURCES_KEPT = 5;

/** Whether `mode` allows more than `ceiling`. */
export function allowsMore(mode: PermissionMode, ceiling: PermissionMode): boolean {
  return stricter(mode, ceiling) !== mode;
}

/** Whether a session holding this outside text would be allowed more in `mode` than its strictest sender may do. */
export function outgrows(outside: OutsideText | undefined, mode: PermissionMode): boolean {
  return outside !== undefined && allowsMore(mode, outside.ceiling);
}

/** What a session carries once this sender's text went in too. */
export function withSource(outside: OutsideText | undefined, source: OutsideSource): OutsideText {
  const from = [...(outside?.from ?? []).filter((name) => name !== source.from), source.from].slice(-SOURCES_KEPT);
  return { ceiling: outside ? stricter(outside.ceiling, source.ceiling) : source.ceiling, from };
}

/** The chat's one line when such a session is left behind for a new one: from `which` message on. */
export function newSessionNotice(outside: OutsideText, mode: PermissionMode, which: 'next' | 'this' = 'next'): string {
  const starts = which === 'next' ? 'The next message starts' : 'This message starts';
  return `🆕 ${starts} a new session: the last one holds text from ${outside.from.join(', ')}, which may do no more than ${outside.ceiling}, not what ${mode} allows.`;
}
