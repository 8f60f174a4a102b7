import { useEffect, useState } from 'preact/hooks';
import { get } from '../api.ts';
import { when } from '../format.ts';
import type { AuditEntry } from '../types.ts';

type Shown = AuditEntry & { chatName?: string };

const COLUMNS = ['Time', 'Event', 'Chat', 'Tool', 'Decision', 'By', 'Detail'] as const;

/** The newest entries of the audit trail: who allowed what, which runs started and stopped. A table on a desk, a card per entry on a phone. */
export function Audit() {
  const [entries, setEntries] = useState<Shown[] | undefined>();
  const [error, setError] = useState('');
  useEffect(() => {
    get<Shown[]>('/audit?limit=300').then(setEntries, (e: Error) => setError(e.message));
  }, []);
  if (error) return <p class="error">{error}</p>;
  if (!entries) return <p class="muted">Loading…</p>;
  if (!entries.length) return <p class="muted">The audit log is empty.</p>;
  return (
    <section aria-labelledby="audit-title">
      <h1 id="audit-title" class="visually-hidden">
        Audit log
      </h1>
      <table class="audit" data-testid="audit">
        <thead>
          <tr>
            {COLUMNS.map((c) => (
              <th key={c} scope="col">
                {c}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {entries.map((e, i) => (
            <tr key={i}>
              <td data-label="Time">
                <time dateTime={new Date(e.time).toISOString()}>{when(new Date(e.time).getTime())}</time>
              </td>
              <td data-label="Event">{e.event}</td>
              <td data-label="Chat" title={e.chat}>
                {e.chatName ?? e.chat}
              </td>
              <td data-label="Tool" title={e.inputPreview}>
                {e.tool ?? ''}
              </td>
              <td data-label="Decision">{e.decision ?? ''}</td>
              <td data-label="By">{e.by ?? ''}</td>
              <td data-label="Detail" class="detail">
                {e.detail ?? ''}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
