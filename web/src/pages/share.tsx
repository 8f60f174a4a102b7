import { useEffect, useState } from 'preact/hooks';
import { ApiError, post } from '../api.ts';
import { duration, money, STATUS_ICON, when } from '../format.ts';
import { RichText } from '../rich-text.tsx';
import type { SharedView } from '../types.ts';

/** Who sent something: ` · Ada (telegram:111)`, or whichever of the two is known; nothing when neither is. */
function sender(name: string | undefined, by: string | undefined): string {
  const shown = name && by ? `${name} (${by})` : (name ?? by);
  return shown ? ` · ${shown}` : '';
}

type Shown = { state: 'loading' } | { state: 'shown'; view: SharedView & { expiresAt: number } } | { state: 'refused'; why: string };

/**
 * A conversation shared with a link (`/share#<token>`): a chat's session or a run, read-only.
 * Nothing here acts: no Stop, no answer, no link into the dashboard's actions; the bridge
 * shows it only to a logged-in person of its chat.
 */
export function SharePage({ token }: { token: string }) {
  const [shown, setShown] = useState<Shown>({ state: 'loading' });
  useEffect(() => {
    post<SharedView & { expiresAt: number }>('/shares/open', { token }).then(
      (view) => setShown({ state: 'shown', view }),
      (error: Error) => setShown({ state: 'refused', why: error instanceof ApiError ? error.message : `The bridge could not be reached: ${error.message}` }),
    );
  }, [token]);
  if (shown.state === 'loading') return <main class="center">Loading…</main>;
  if (shown.state === 'refused')
    return (
      <main class="center">
        <h1>
          <img src="/favicon.svg" alt="" width={28} height={28} /> jsonl-bridge
        </h1>
        <p class="error" data-testid="share-error">
          {shown.why}
        </p>
      </main>
    );
  const { view } = shown;
  return (
    <main class="shared" data-testid="shared" data-kind={view.kind}>
      <h1>
        {view.status ? <span aria-hidden="true">{STATUS_ICON[view.status]} </span> : null}
        {view.title}
      </h1>
      <dl class="facts">
        <dt>Chat</dt>
        <dd>{view.chat}</dd>
        <dt>CLI</dt>
        <dd>
          {view.cli}
          {view.model ? ` · ${view.model}` : ''}
        </dd>
        {view.session && (
          <>
            <dt>Session</dt>
            <dd>
              <code>{view.session}</code>
            </dd>
          </>
        )}
        {view.status && (
          <>
            <dt>Status</dt>
            <dd>{view.status}</dd>
          </>
        )}
        <dt>Link works until</dt>
        <dd>{when(view.expiresAt)}</dd>
      </dl>
      <p class="muted">Read-only: what the bridge kept of this conversation. Tool calls are folded; open one to see its input and output.</p>
      {view.earlierTurnsGone && (
        <p class="muted">Earlier turns of this conversation are not in the bridge’s record: they happened elsewhere (a terminal) or are no longer kept.</p>
      )}
      {!view.turns.length && <p class="muted">Nothing was said here yet.</p>}
      {view.turns.map((turn, index) => (
        <article class="turn" key={index} aria-labelledby={`turn-${index + 1}`} data-testid="turn">
          <h2 id={`turn-${index + 1}`}>
            Turn {index + 1}{' '}
            <span class="meta">
              · {when(turn.at)}
              {sender(turn.sender, turn.by)}
            </span>
          </h2>
          {turn.prompt !== undefined ? <blockquote class="prompt">{turn.prompt}</blockquote> : <p class="muted">A message sent to the run.</p>}
          {turn.steps.map((step, i) =>
            step.kind === 'text' ? (
              <div key={i} class={`rich${step.nested ? ' nested' : ''}`}>
                <RichText spans={step.spans} />
              </div>
            ) : step.kind === 'message' ? (
              <div key={i} class="sent" data-testid="sent-while-working">
                <p class="meta">Sent while it worked{sender(step.sender, step.by).replace(' · ', ' by ')}:</p>
                <blockquote class="prompt">{step.text}</blockquote>
              </div>
            ) : (
              <details key={i} class={`tool${step.isError ? ' failed' : ''}${step.nested ? ' nested' : ''}`} data-testid="tool-call">
                <summary>
                  <span aria-hidden="true">🔧</span> {step.name}
                  {step.summary ? `: ${step.summary}` : ''} {step.output === undefined ? '(not ended)' : step.isError ? '(failed)' : ''}
                </summary>
                <h3>Input</h3>
                <pre>{step.input}</pre>
                <h3>{step.isError ? 'Error' : 'Output'}</h3>
                <pre>{step.output ?? 'No output: the call had not ended.'}</pre>
              </details>
            ),
          )}
          {turn.answer && (
            <div class="answer rich" data-testid="answer">
              <RichText spans={turn.answer} />
            </div>
          )}
          {turn.error && <p class="error">{turn.error}</p>}
          <p class="meta">
            {[
              turn.status ?? 'not finished',
              ...(turn.durationMs !== undefined ? [duration(turn.durationMs)] : []),
              ...(turn.costUsd !== undefined ? [money(turn.costUsd)] : []),
            ].join(' · ')}
          </p>
        </article>
      ))}
    </main>
  );
}
