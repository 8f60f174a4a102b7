import { useEffect, useRef, useState } from 'preact/hooks';
import { follow, get } from '../api.ts';
import { Ago } from '../ago.tsx';
import { duration, money, STATUS_ICON, when } from '../format.ts';
import { questionOf, type Live } from '../live.ts';
import { RichText } from '../rich-text.tsx';
import type { RunView } from '../types.ts';
import { StopButton } from '../stop-button.tsx';
import { RunState } from '../waiting.tsx';
import { Review } from './review.tsx';
import { ShareLink } from '../share-link.tsx';

type LogLine = { kind: string; text: string; nested?: true };

const ICON: Record<string, string> = { started: '▶', text: '💬', tool: '🔧', 'tool-error': '⚠', result: '🏁', error: '❌' };

/** A run: what it is, its Stop while it runs, its result, and its log as it streams. */
export function RunPage({ id, live }: { id: string; live: Live }) {
  const [run, setRun] = useState<RunView | undefined>(live.runs.find((r) => r.runId === id));
  const [missing, setMissing] = useState(false);
  const [lines, setLines] = useState<LogLine[]>([]);
  const log = useRef<HTMLOListElement>(null);
  const current = live.runs.find((r) => r.runId === id) ?? run;
  useEffect(() => {
    // A run's page opens at its top: what it is comes before its log.
    scrollTo(0, 0);
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
  // The log box follows its newest line while its reader is at its end; the page itself stays where it is.
  useEffect(() => {
    const box = log.current;
    if (box && box.scrollHeight - box.scrollTop - box.clientHeight < 80) box.scrollTop = box.scrollHeight;
  }, [lines.length]);
  if (missing && !current) return <p class="error">No such run.</p>;
  if (!current) return <p class="muted">Loading…</p>;
  const question = questionOf(live, current.runId);
  const active = current.status === 'running' || current.status === 'queued';
  return (
    <section data-run={current.runId} data-status={current.status} aria-labelledby="run-title">
      <p>
        <a href="#runs">← Runs</a>
      </p>
      <h1 id="run-title">
        <span aria-hidden="true">{STATUS_ICON[current.status]}</span> <span class="chat-name">{current.chatName}</span> · #{current.number} {current.name}
      </h1>
      <StopButton key={current.runId} path={`/runs/${current.runId}/stop`} label={`Stop #${current.number}`} active={active} />
      <dl class="facts">
        <dt>Status</dt>
        <dd data-testid="run-status">
          <RunState status={current.status} question={question} />
        </dd>
        <dt>CLI</dt>
        <dd>
          {current.cli}
          {current.model ? ` · ${current.model}` : ''}
          {current.agent ? ` · agent ${current.agent}` : ''}
        </dd>
        <dt>Chat</dt>
        <dd title={current.chat}>{current.chatName}</dd>
        <dt>Started</dt>
        <dd>{current.startedAt ? <Ago at={current.startedAt} /> : 'not yet'}</dd>
        <dt>Duration</dt>
        <dd>{duration(current.durationMs)}</dd>
        <dt>Cost</dt>
        <dd>{money(current.costUsd)}</dd>
        {current.endedAt && (
          <>
            <dt>Ended</dt>
            <dd>{when(current.endedAt)}</dd>
          </>
        )}
        {current.worker && (
          <>
            <dt>Worker</dt>
            <dd>{current.worker}</dd>
          </>
        )}
        {current.orchestration && (
          <>
            <dt>Plan</dt>
            <dd>
              <a href={`#graphs/${current.orchestration.id}`}>step {current.orchestration.step}</a>
            </dd>
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
      <h2>Task</h2>
      <pre class="task">{current.task}</pre>
      {current.error && <p class="error">{current.error}</p>}
      {current.resultSpans && (
        <>
          <h2>Result</h2>
          <div class="result rich" data-testid="run-result">
            <RichText spans={current.resultSpans} />
          </div>
        </>
      )}
      {current.worktree && !current.worker && <Review run={current} />}
      <ShareLink key={current.runId} runId={current.runId} />
      <h2 id="log-title">Log</h2>
      <ol class="log" data-testid="run-log" ref={log} tabIndex={0} aria-labelledby="log-title">
        {lines.map((l, i) => (
          <li key={i} class={`line ${l.kind}${l.nested ? ' nested' : ''}`}>
            <span aria-hidden="true">{ICON[l.kind]}</span> {l.text}
          </li>
        ))}
      </ol>
    </section>
  );
}
