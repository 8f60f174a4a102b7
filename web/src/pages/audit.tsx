import { useEffect, useState } from 'preact/hooks';
import { get } from '../api.ts';
import type { AuditEntry } from '../types.ts';

/** The newest entries of the audit trail: who allowed what, which runs started and stopped. */
export function Audit() {
  const [entries, setEntries] = useState<AuditEntry[] | undefined>();
  const [error, setError] = useState('');
  useEffect(() => {
    get<AuditEntry[]>('/audit?limit=300').then(setEntries, (e: Error) => setError(e.message));
  }, []);
  if (error) return <p class="error">{error}</p>;
  if (!entries) return <p class="muted">Loading…</p>;
  if (!entries.length) return <p class="muted">The audit log is empty.</p>;
  return (
    <section class="scroll">
      <table class="audit" data-testid="audit">
        <thead>
          <tr>
            <th>Time</th>
            <th>Event</th>
            <th>Chat</th>
            <th>Tool</th>
            <th>Decision</th>
            <th>By</th>
            <th>Detail</th>
          </tr>
        </thead>
        <tbody>
          {entries.map((e, i) => (
            <tr key={i}>
              <td>{new Date(e.time).toLocaleString()}</td>
              <td>{e.event}</td>
              <td>{e.chat}</td>
              <td title={e.inputPreview}>{e.tool ?? ''}</td>
              <td>{e.decision ?? ''}</td>
              <td>{e.by ?? ''}</td>
              <td>{e.detail ?? ''}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
