import { useState } from 'preact/hooks';
import { post } from '../api.ts';
import { when } from '../format.ts';
import type { Live } from '../live.ts';

/** The questions waiting for Allow or Deny, in every chat: answered here as with the chat's buttons. */
export function Approvals({ live }: { live: Live }) {
  const [told, setTold] = useState<Record<string, string>>({});
  const answer = async (id: string, choice: 'allow' | 'deny' | 'always') => {
    const result = await post<{ text: string }>(`/approvals/${id}`, { choice }).catch((error: Error) => ({ text: error.message }));
    setTold((t) => ({ ...t, [id]: result.text }));
  };
  if (!live.approvals.length)
    return (
      <section>
        <p class="muted" data-testid="no-approvals">
          Nothing is waiting for an answer.
        </p>
        {Object.values(told).map((text, i) => (
          <p key={i} class="told">
            {text}
          </p>
        ))}
      </section>
    );
  return (
    <section>
      <ul class="cards">
        {live.approvals.map((q) => (
          <li key={q.id} data-question={q.id}>
            <strong>
              {q.title} wants to use {q.tool}
            </strong>
            <span class="meta">
              {q.chatKey} · asked {when(q.askedAt)}
            </span>
            <pre>{q.input}</pre>
            <div class="buttons">
              <button onClick={() => void answer(q.id, 'allow')}>✅ Allow</button>
              <button onClick={() => void answer(q.id, 'deny')}>⛔ Deny</button>
              <button onClick={() => void answer(q.id, 'always')}>✅ Allow {q.tool} from now on</button>
            </div>
            {told[q.id] && <p class="told">{told[q.id]}</p>}
          </li>
        ))}
      </ul>
    </section>
  );
}
