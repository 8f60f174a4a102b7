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

/** The steps between the cost axis's ticks: 1, 2 and 5 of each power of ten, from $0.0001 up. */
export const MONEY_STEPS = [-4, -3, -2, -1, 0, 1, 2, 3, 4].flatMap((power) => [1, 2, 5].map((m) => Number((m * 10 ** power).toPrecision(1))));

/** A tick of the cost axis: $0.005, $0.01, $0.015 … with as many decimals as the step between ticks has. */
export function dollars(usd: number, step: number): string {
  const decimals = Math.min(4, Math.max(0, Math.ceil(-Math.log10(step) - 1e-9)));
  if (usd === 0) return '$0';
  return `$${usd.toFixed(step >= 1 ? 0 : Math.max(2, decimals))}`;
}

export function when(ms: number): string {
  return new Date(ms).toLocaleString(undefined, { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', second: '2-digit' });
}

export const STATUS_ICON: Record<string, string> = {
  queued: '⏳',
  pending: '⏳',
  running: '🔄',
  completed: '✅',
  // As the chat's announcement says it: every end but completed is ❌, the word beside it says which.
  failed: '❌',
  stopped: '❌',
  timed_out: '❌',
  interrupted: '❌',
  skipped: '⏭',
};

/** How long ago, as people say it: "just now", "3 min ago", "2 h ago", "yesterday", "5 days ago"; past a week, the date. */
export function ago(ms: number, now = Date.now()): string {
  const s = Math.max(0, Math.round((now - ms) / 1000));
  if (s < 45) return 'just now';
  const m = Math.round(s / 60);
  if (m < 60) return `${m} min ago`;
  const h = Math.round(m / 60);
  if (h < 24) return `${h} h ago`;
  const d = Math.round(h / 24);
  if (d === 1) return 'yesterday';
  if (d < 7) return `${d} days ago`;
  return new Date(ms).toLocaleDateString(undefined, { month: 'short', day: 'numeric', year: d > 300 ? 'numeric' : undefined });
}
