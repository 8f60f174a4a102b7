/** 83 s → "1m 23s". */
export function duration(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m ${s % 60}s`;
  return `${Math.floor(m / 60)}h ${m % 60}m`;
}

export function money(usd: number | undefined): string {
  return usd === undefined ? '—' : `$${usd < 0.01 && usd > 0 ? usd.toFixed(4) : usd.toFixed(2)}`;
}

export function when(ms: number): string {
  return new Date(ms).toLocaleString(undefined, { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', second: '2-digit' });
}

export const STATUS_ICON: Record<string, string> = {
  queued: '⏳',
  pending: '⏳',
  running: '🔄',
  completed: '✅',
  failed: '❌',
  stopped: '⏹',
  timed_out: '⌛',
  interrupted: '⚠️',
  skipped: '⏭',
};
