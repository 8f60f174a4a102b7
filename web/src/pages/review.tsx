import { html as diffHtml } from 'diff2html';
import { ColorSchemeType } from 'diff2html/lib/types';
import 'diff2html/bundles/css/diff2html.min.css';
import { useEffect, useState } from 'preact/hooks';
import { ApiError, get, post } from '../api.ts';
import type { RunView } from '../types.ts';

interface Diff {
  branch: string;
  diff: string;
  filesChanged: number;
  insertions: number;
  deletions: number;
  commitCount: number;
  truncated: boolean;
  uncommittedFiles: number;
  mayChange: boolean;
}

/** A worktree run's changes, rendered, with Merge and Discard (asked again when unmerged commits would be lost). */
export function Review({ run }: { run: RunView }) {
  const [diff, setDiff] = useState<Diff | undefined>();
  const [told, setTold] = useState('');
  const [error, setError] = useState('');
  const [confirm, setConfirm] = useState<number | undefined>();
  const load = () =>
    get<Diff>(`/runs/${run.runId}/diff`).then(
      (d) => {
        setDiff(d);
        setError('');
      },
      (e: Error) => setError(e.message),
    );
  const gone = run.worktree?.removed === true;
  useEffect(() => {
    if (!gone) void load();
  }, [run.runId, run.status, gone]);
  const act = async (action: 'merge' | 'discard', body: unknown = {}) => {
    setConfirm(undefined);
    try {
      const result = await post<{ text: string }>(`/runs/${run.runId}/${action}`, body);
      setTold(result.text);
      setDiff(undefined);
    } catch (e) {
      const unmerged = e instanceof ApiError ? (e.body as { unmerged?: number } | undefined)?.unmerged : undefined;
      if (action === 'discard' && unmerged !== undefined) setConfirm(unmerged);
      setTold((e as Error).message);
    }
  };
  return (
    <section class="review" data-testid="review">
      <h3>Changes</h3>
      {told && (
        <p class="told" data-testid="review-told">
          {told}
        </p>
      )}
      {error && !told && <p class="muted">{error}</p>}
      {gone && !told && <p class="muted">The worktree is gone: nothing left to review.</p>}
      {diff && (
        <>
          <p class="meta">
            {diff.branch}: {diff.commitCount} commit{diff.commitCount === 1 ? '' : 's'}, {diff.filesChanged} file{diff.filesChanged === 1 ? '' : 's'}, +
            {diff.insertions} −{diff.deletions}
            {diff.uncommittedFiles ? ` · ${diff.uncommittedFiles} uncommitted file(s) not shown` : ''}
            {diff.truncated ? ' · cut short' : ''}
          </p>
          {diff.mayChange && (
            <div class="buttons">
              <button onClick={() => void act('merge')}>🔀 Merge</button>
              <button onClick={() => void act('discard')}>🗑 Discard</button>
            </div>
          )}
          {confirm !== undefined && (
            <div class="buttons">
              <button onClick={() => void act('discard', { confirmedCommits: confirm })}>
                🗑 Discard {confirm} unmerged commit{confirm === 1 ? '' : 's'}
              </button>
              <button onClick={() => setConfirm(undefined)}>Keep</button>
            </div>
          )}
          <div
            class="diff"
            data-testid="diff"
            dangerouslySetInnerHTML={{
              __html: diffHtml(diff.diff, { drawFileList: true, outputFormat: 'line-by-line', matching: 'lines', colorScheme: ColorSchemeType.AUTO }),
            }}
          />
        </>
      )}
    </section>
  );
}
