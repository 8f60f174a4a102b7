import { useState } from 'preact/hooks';
import { Ago } from '../ago.tsx';
import { duration, money, STATUS_ICON } from '../format.ts';
import { questionOf, type Live } from '../live.ts';
import { RunState } from '../waiting.tsx';
import { LiveSessions } from '../sessions.tsx';

const FILTERS = ['all', 'active', 'ended', 'failed'] as const;
type Filter = (typeof FILTERS)[number];

const matches: Record<Filter, (status: string) => boolean> = {
  all: () => true,
  active: (s) => s === 'queued' || s === 'running',
  ended: (s) => s !== 'queued' && s !== 'running',
  failed: (s) => s === 'failed' || s === 'timed_out' || s === 'interrupted',
};

/** Every run, newest first, one line each on a desk, changing as they do: filtered by state, CLI and words. */
export function Runs({ live }: { live: Live }) {
  const [filter, setFilter] = useState<Filter>('all');
  const [cli, setCli] = useState('');
  const [words, setWords] = useState('');
  const clis = [...new Set(live.runs.map((r) => r.cli))].sort();
  const shown = live.runs.filter(
    (r) =>
      matches[filter](r.status) &&
      (!cli || r.cli === cli) &&
      (!words || `${r.name} ${r.task} ${r.chat} ${r.chatName}`.toLowerCase().includes(words.toLowerCase())),
  );
  return (
    <section aria-labelledby="runs-title">
      <h1 id="runs-title" class="visually-hidden">
        Runs
      </h1>
      <div class="filters" role="group" aria-label="Show">
        {FILTERS.map((f) => (
          <button key={f} type="button" class={filter === f ? 'chip on' : 'chip'} aria-pressed={filter === f} onClick={() => setFilter(f)}>
            {f}
          </button>
        ))}
        <select value={cli} onChange={(e) => setCli((e.target as HTMLSelectElement).value)} aria-label="CLI">
          <option value="">every CLI</option>
          {clis.map((c) => (
            <option key={c}>{c}</option>
          ))}
        </select>
        <input type="search" placeholder="search" aria-label="Search runs" value={words} onInput={(e) => setWords((e.target as HTMLInputElement).value)} />
      </div>
      <LiveSessions />
      {!live.connected && <p class="muted">Connecting…</p>}
      {live.connected && !shown.length && <p class="muted">No runs{filter === 'all' && !cli && !words ? ' yet: /spawn one from a chat' : ' match'}.</p>}
      <ul class="rows" data-testid="runs">
        {shown.map((run) => (
          <li key={run.runId} data-run={run.runId} data-status={run.status}>
            <a class="title" href={`#run/${run.runId}`}>
              <span class="chat-name">{run.chatName}</span> · #{run.number} <strong>{run.name}</strong>
            </a>
            <span class="state">
              <RunState status={run.status} question={questionOf(live, run.runId)} icon={STATUS_ICON[run.status]} />
            </span>
            <span class="task" title={run.task}>
              {run.task}
            </span>
            <span class="meta">
              {run.cli}
              {run.model ? ` · ${run.model}` : ''} · {duration(run.durationMs)} · {money(run.costUsd)}
              {run.worker ? ` · on ${run.worker}` : ''}
            </span>
            <span class="meta when">
              <Ago at={run.createdAt} />
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
