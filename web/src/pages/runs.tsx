import { useState } from 'preact/hooks';
import { duration, money, STATUS_ICON } from '../format.ts';
import type { Live } from '../live.ts';

const FILTERS = ['all', 'active', 'ended', 'failed'] as const;
type Filter = (typeof FILTERS)[number];

const matches: Record<Filter, (status: string) => boolean> = {
  all: () => true,
  active: (s) => s === 'queued' || s === 'running',
  ended: (s) => s !== 'queued' && s !== 'running',
  failed: (s) => s === 'failed' || s === 'timed_out' || s === 'interrupted',
};

/** Every run, newest first, changing as they do: filtered by state, CLI and words. */
export function Runs({ live }: { live: Live }) {
  const [filter, setFilter] = useState<Filter>('all');
  const [cli, setCli] = useState('');
  const [words, setWords] = useState('');
  const clis = [...new Set(live.runs.map((r) => r.cli))].sort();
  const shown = live.runs.filter(
    (r) => matches[filter](r.status) && (!cli || r.cli === cli) && (!words || `${r.name} ${r.task} ${r.chat}`.toLowerCase().includes(words.toLowerCase())),
  );
  return (
    <section>
      <div class="filters">
        {FILTERS.map((f) => (
          <button key={f} class={filter === f ? 'chip on' : 'chip'} onClick={() => setFilter(f)}>
            {f}
          </button>
        ))}
        <select value={cli} onChange={(e) => setCli((e.target as HTMLSelectElement).value)} aria-label="CLI">
          <option value="">every CLI</option>
          {clis.map((c) => (
            <option key={c}>{c}</option>
          ))}
        </select>
        <input type="search" placeholder="search" value={words} onInput={(e) => setWords((e.target as HTMLInputElement).value)} />
      </div>
      {!live.connected && <p class="muted">Connecting…</p>}
      {live.connected && !shown.length && <p class="muted">No runs{filter === 'all' && !cli && !words ? ' yet: /spawn one from a chat' : ' match'}.</p>}
      <ul class="cards" data-testid="runs">
        {shown.map((run) => (
          <li key={run.runId} data-run={run.runId} data-status={run.status}>
            <a href={`#run/${run.runId}`}>
              <span class="status" title={run.status}>
                {STATUS_ICON[run.status]} <span class="status-word">{run.status.replace('_', ' ')}</span>
              </span>
              <strong>
                #{run.number} {run.name}
              </strong>
              <span class="task">{run.task}</span>
              <span class="meta">
                {run.cli}
                {run.model ? ` · ${run.model}` : ''} · {duration(run.durationMs)} · {money(run.costUsd)}
                {run.worker ? ` · on ${run.worker}` : ''} · {run.chat}
              </span>
            </a>
          </li>
        ))}
      </ul>
    </section>
  );
}
