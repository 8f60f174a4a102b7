import { useState } from 'preact/hooks';
import { post } from './api.ts';
import { when } from './format.ts';

/** Makes a read-only link to a run for its chat's people, and shows it to copy. */
export function ShareLink({ runId }: { runId: string }) {
  const [link, setLink] = useState<{ url: string; expiresAt: number } | undefined>();
  const [error, setError] = useState<string | undefined>();
  const make = () =>
    post<{ path: string; expiresAt: number }>('/shares', { run: runId }).then(
      ({ path, expiresAt }) => setLink({ url: `${location.origin}${path}`, expiresAt }),
      (e: Error) => setError(e.message),
    );
  if (link)
    return (
      <p data-testid="share-link">
        Read-only link for this chat’s people, until {when(link.expiresAt)}: <a href={link.url}>{link.url}</a>
      </p>
    );
  return (
    <p>
      <button onClick={() => void make()}>🔗 Share link</button>
      {error && <span class="error"> {error}</span>}
    </p>
  );
}
