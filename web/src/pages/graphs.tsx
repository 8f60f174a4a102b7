import { useEffect, useState } from 'preact/hooks';
import { ApiError, getText } from '../api.ts';
import { Ago } from '../ago.tsx';
import { STATUS_ICON } from '../format.ts';
import type { Live } from '../live.ts';
import { StopButton } from '../stop-button.tsx';

/** The graph as the bridge draws it (the same picture the chat gets), fetched again whenever the orchestration changes. */
async function graphSvg(id: string): Promise<string> {
  return getText(`/orchestrations/${id}/graph.svg`).catch((error: ApiError) => {
    throw new ApiError(error.status, `the graph could not be drawn (${error.status})`);
  });
}

/** Orchestrations, newest first; the chosen one drawn as its graph, its nodes changing state as its steps do, with Stop while it runs. */
export function Graphs({ live, selected }: { live: Live; selected: string | undefined }) {
  const chosen = live.orchestrations.find((o) => o.id === selected) ?? live.orchestrations[0];
  const [svg, setSvg] = useState('');
  const [error, setError] = useState('');
  // Drawn again on every change of the chosen orchestration (its steps' states are in the view).
  const version = chosen ? JSON.stringify(chosen.steps.map((s) => s.status)) : '';
  useEffect(() => {
    if (!chosen) return;
    graphSvg(chosen.id).then(
      (text) => {
        setSvg(text);
        setError('');
      },
      (e: Error) => setError(e.message),
    );
  }, [chosen?.id, version]);
  if (!live.orchestrations.length) return <p class="muted">No orchestrations yet: /orchestrate a plan from a chat.</p>;
  return (
    <section aria-labelledby="graph-title">
      <nav class="filters" aria-label="Orchestrations">
        {live.orchestrations.map((o) => (
          <a key={o.id} href={`#graphs/${o.id}`} class={o.id === chosen?.id ? 'chip on' : 'chip'} aria-current={o.id === chosen?.id ? 'page' : undefined}>
            <span aria-hidden="true">{STATUS_ICON[o.status]}</span> {o.chatName} · #{o.number} {o.name}
          </a>
        ))}
      </nav>
      {chosen && (
        <div data-orchestration-page={chosen.id} data-status={chosen.status}>
          <h1 id="graph-title">
            {chosen.chatName} · #{chosen.number} {chosen.name}
          </h1>
          <p class="meta">
            {chosen.status} · started <Ago at={chosen.createdAt} />
          </p>
          <StopButton
            key={chosen.id}
            path={`/orchestrations/${chosen.id}/stop`}
            label={`Stop the plan #${chosen.number}`}
            active={chosen.status === 'running'}
          />
          {error ? (
            <p class="error">{error}</p>
          ) : (
            <div
              class="graph"
              data-testid="graph"
              data-orchestration={chosen.id}
              role="img"
              aria-label={`The plan's graph: ${chosen.steps.map((s) => `${s.name} ${s.status}`).join(', ')}`}
              dangerouslySetInnerHTML={{ __html: svg }}
            />
          )}
          <ul class="steps">
            {chosen.steps.map((s) => (
              <li key={s.id} data-step={s.id} data-status={s.status}>
                <span aria-hidden="true">{STATUS_ICON[s.status]}</span> {s.name} <span class="status-word">{s.status}</span>
                {s.runId ? (
                  <>
                    {' '}
                    · <a href={`#run/${s.runId}`}>run #{s.runNumber}</a>
                  </>
                ) : null}
                {s.error ? <span class="error"> · {s.error}</span> : null}
              </li>
            ))}
          </ul>
        </div>
      )}
    </section>
  );
}
