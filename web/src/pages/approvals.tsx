import { useLayoutEffect, useState } from 'preact/hooks';
import { post } from '../api.ts';
import { Ago } from '../ago.tsx';
import type { Live } from '../live.ts';

/** The questions waiting for Allow or Deny, in every chat: answered here as with the chat's buttons. `selected`: the one a link pointed at. */
export function Approvals({ live, selected }: { live: Live; selected?: string | undefined }) {
  const [told, setTold] = useState<Record<string, string>>({});
  const answer = async (id: string, choice: 'allow' | 'deny' | 'always') => {
    const result = await post<{ text: string }>(`/approvals/${id}`, { choice }).catch((error: Error) => ({ text: error.message }));
    setTold((t) => ({ ...t, [id]: result.text }));
  };
  const present = selected !== undefined && live.approvals.some((q) => q.id === selected);
  // A link to one question (a waiting run's) brings it into view, with the focus on it for the keyboard:
  // a layout effect, so the focus lands with the selection in one paint rather than a frame after it.
  useLayoutEffect(() => {
    if (!present) return;
    const card = document.getElementById(`question-${selected}`);
    card?.scrollIntoView({ block: 'center' });
    card?.focus({ preventScroll: true });
  }, [selected, present]);
  const gone = selected !== undefined && live.connected && !present && !told[selected];
  return (
    <section aria-labelledby="approvals-title">
      <h1 id="approvals-title" class="visually-hidden">
        Approvals
      </h1>
      {gone && <p class="muted">That question has been answered, or its run has ended.</p>}
      {!live.approvals.length ? (
        <>
          <p class="muted" data-testid="no-approvals">
            Nothing is waiting for an answer.
          </p>
          {Object.values(told).map((text, i) => (
            <p key={i} class="told">
              {text}
            </p>
          ))}
        </>
      ) : (
        <ul class="cards">
          {live.approvals.map((q) => (
            <li
              key={q.id}
              id={`question-${q.id}`}
              data-question={q.id}
              class={q.id === selected ? 'selected' : undefined}
              tabIndex={-1}
              aria-labelledby={`question-${q.id}-title`}
            >
              <h2 id={`question-${q.id}-title`} class="card-title">
                {q.title} wants to use {q.tool}
              </h2>
              <span class="meta">
                {q.runId ? <a href={`#run/${q.runId}`}>{q.chatName}</a> : q.chatName} · asked <Ago at={q.askedAt} />
              </span>
              <pre>{q.input}</pre>
              {q.approvals && (
                <p class="approvals" data-testid="approvals-count">
                  Needs {q.approvals.needed} people's Allow ({q.approvals.rule}):{' '}
                  <strong>
                    {q.approvals.by.length
                      ? `${q.approvals.by.length} of ${q.approvals.needed} approved: ${q.approvals.by.join(', ')}`
                      : `none of ${q.approvals.needed} approved yet`}
                  </strong>
                  . Whoever started this work cannot be the last of them.
                </p>
              )}
              <div class="buttons">
                <button type="button" onClick={() => void answer(q.id, 'allow')}>
                  ✅ Allow
                </button>
                <button type="button" onClick={() => void answer(q.id, 'deny')}>
                  ⛔ Deny
                </button>
                {q.grant && (
                  <button type="button" onClick={() => void answer(q.id, 'always')}>
                    ✅ Allow {q.tool} for this {q.grant}
                  </button>
                )}
              </div>
              {told[q.id] && (
                <p class="told" role="status">
                  {told[q.id]}
                </p>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
