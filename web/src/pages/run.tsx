import { useEffect, useRef, useState } from 'preact/hooks';
import { follow, get } from '../api.ts';
import { duration, money, STATUS_ICON, when } from '../format.ts';
import type { Live } from '../live.ts';
import type { RunView } from '../types.ts';
import { Review } from './review.tsx';

type LogLine = { kind: string; text: string; nested?: true };

const ICON: Record<string, string> = { started: '▶', text: '💬', tool: '🔧', 'tool-error': '⚠', result: '🏁', error: '❌' };

/** A run: what it is, and its log as it streams. */
export function RunPage({ id, live }: { id: string; live: Live }) {
  const [run, setRun] = useState<RunView | undefined>(live.runs.find((r) => r.runId === id));
  const [missing, setMissing] = useState(false);
  const [lines, setLines] = useState<LogLine[]>([]);
  const bottom = useRef<HTMLDivElement>(null);
  const current = live.runs.find((r) => r.runId === id) ?? run;
  useEffect(() => {
    get<RunView>(`/runs/${id}`).then(setRun, () => setMissing(true));
    const stop = new AbortController();
    setLines([]);
    void follow(
      `/runs/${id}/log`,
      (event, data) => {
        if (event === 'line') setLines((l) => [...l, data as LogLine]);
        else if (event === 'ended') setRun(data as RunView);
      },
      stop.signal,
    ).catch(() => {});
    return () => stop.abort();
  }, [id]);
  useEffect(() => bottom.current?.scrollIntoView({ block: 'end' }), [lines.length]);
  if (missing && !current) return <p class="error">No such run.</p>;
  if (!current) return <p class="muted">Loading…</p>;
  return (
    <section data-run={current.runId} data-status={current.status}>
      <p>
        <a href="#runs">← Runs</a>
      </p>
      <h2>
        {STATUS_ICON[current.status]} #{current.number} {current.name}
      </h2>
      <dl class="facts">
        <dt>Status</dt>
        <dd data-testid="run-status">{current.status.replace('_', ' ')}</dd>
        <dt>CLI</dt>
        <dd>
          {current.cli}
          {current.model ? ` · ${current.model}` : ''}
          {current.agent ? ` · agent ${current.agent}` : ''}
        </dd>
        <dt>Chat</dt>
        <dd>{current.chat}</dd>
        <dt>Started</dt>
        <dd>{current.startedAt ? when(current.startedAt) : 'not yet'}</dd>
        <dt>Duration</dt>
        <dd>{duration(current.durationMs)}</dd>
        <dt>Cost</dt>
        <dd>{money(current.costUsd)}</dd>
        {current.worker && (
          <>
            <dt>Worker</dt>
            <dd>{current.worker}</dd>
          </>
        )}
        {current.worktree && (
          <>
            <dt>Worktree</dt>
            <dd>
              {current.worktree.branch}
              {current.worktree.merged
                ? ` (merged into ${current.worktree.merged.into} by ${current.worktree.merged.by})`
                : current.worktree.discarded
                  ? ` (discarded by ${current.worktree.discarded.by})`
                  : current.worktree.removed
                    ? ' (removed)'
                    : ''}
            </dd>
          </>
        )}
      </dl>
      <h3>Task</h3>
      <pre class="task">{current.task}</pre>
      {current.error && <p class="error">{current.error}</p>}
      {current.result && (
        <>
          <h3>Result</h3>
          <pre class="result">{current.result}</pre>
        </>
      )}
      {current.worktree && !current.worker && <Review run={current} />}
      <h3>Log</h3>
      <div class="log" data-testid="run-log">
        {lines.map((l, i) => (
          <div key={i} class={`line ${l.kind}${l.nested ? ' nested' : ''}`}>
            {ICON[l.kind]} {l.text}
          </div>
        ))}
        <div ref={bottom} />
      </div>
    </section>
  );
}
