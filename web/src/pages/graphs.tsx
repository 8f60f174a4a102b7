import { useEffect, useState } from 'preact/hooks';
import { ApiError, getText } from '../api.ts';
import { STATUS_ICON, when } from '../format.ts';
import type { Live } from '../live.ts';

/** The graph as the bridge draws it (the same picture the chat gets), fetched again whenever the orchestration changes. */
async function graphSvg(id: string): Promise<string> {
  return getText(`/orchestrations/${id}/graph.svg`).catch((error: ApiError) => {
    throw new ApiError(error.status, `the graph could not be drawn (${error.status})`);
  });
}

/** Orchestrations, newest first; the chosen one drawn as its graph, its nodes changing state as its steps do. */
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
    <section>
      <div class="filters">
        {live.orchestrations.map((o) => (
          <a key={o.id} href={`#graphs/${o.id}`} class={o.id === chosen?.id ? 'chip on' : 'chip'}>
            {STATUS_ICON[o.status]} #{o.number} {o.name}
          </a>
        ))}
      </div>
      {chosen && (
        <>
          <p class="meta">
            {chosen.chat} · {when(chosen.createdAt)} · {chosen.status}
          </p>
          {error ? (
            <p class="error">{error}</p>
          ) : (
            <div class="graph" data-testid="graph" data-orchestration={chosen.id} dangerouslySetInnerHTML={{ __html: svg }} />
          )}
          <ul class="steps">
            {chosen.steps.map((s) => (
              <li key={s.id} data-step={s.id} data-status={s.status}>
                {STATUS_ICON[s.status]} {s.name}
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
        </>
      )}
    </section>
  );
}
