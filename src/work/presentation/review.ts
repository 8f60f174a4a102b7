import { ButtonKind } from '../../kernel/ports/buttons.ts';
import type { Button } from '../../kernel/ports/chat.ts';
import { code, lines, plain, rich, type RichText } from '../../kernel/rich/index.ts';
import { displayName, type SubagentRunRecord } from '../subagents/record.ts';
import type { ReviewDiff, ReviewDiscard, ReviewMerge, ReviewRefused } from '../subagents/run-review.ts';
import { displayPath } from './paths.ts';
import type { DiffCounts } from '../../engine/worktrees/types.ts';

/** What a review button asks: a run's diff, merge or discard, a discard's confirmation (of so many commits), or keeping it after all. */
export type ReviewPress = { action: 'diff' | 'merge' | 'discard' | 'keep'; runId: string } | { action: 'confirm'; runId: string; commits: number };

const CODES = { diff: 'd', merge: 'm', discard: 'x', keep: 'k', confirm: 'X' } as const;
const ACTIONS = Object.fromEntries(Object.entries(CODES).map(([action, letter]) => [letter, action])) as Record<string, ReviewPress['action']>;
const PAYLOAD = /^([dmxkX]):([\w-]{1,40})(?::(\d{1,6}))?$/;

/** `wt:<d|m|x|k>:<runId>`, or `wt:X:<runId>:<commits>` for a confirmed discard. */
export const REVIEW = new ButtonKind<ReviewPress>('wt', {
  encode: (press) => `${CODES[press.action]}:${press.runId}${press.action === 'confirm' ? `:${press.commits}` : ''}`,
  decode(raw) {
    const [, letter = '', runId = '', commits] = PAYLOAD.exec(raw) ?? [];
    const action = ACTIONS[letter];
    if (!action || (action === 'confirm') !== (commits !== undefined)) return undefined;
    return action === 'confirm' ? { action, runId, commits: Number(commits) } : { action, runId };
  },
});

/** Whether the run's worktree is here to review: made on this machine, and not removed. */
export function reviewable(run: SubagentRunRecord): boolean {
  return run.worktree !== undefined && !run.worktree.removed && !run.worker;
}

/** Diff, Merge and Discard, under a run that worked in a worktree. */
export function reviewButtons(run: SubagentRunRecord): Button[][] {
  const { runId } = run;
  return [
    [
      REVIEW.button('📄 Diff', { action: 'diff', runId }),
      REVIEW.button('🔀 Merge', { action: 'merge', runId }),
      REVIEW.button('🗑 Discard', { action: 'discard', runId }),
    ],
  ];
}

/** The diff's file name: its branch's, readable in a file list. */
export function diffFilename(diff: Extract<ReviewDiff, { ok: true }>): string {
  return `${diff.branch.replace(/[^\w.-]+/g, '-')}.diff`;
}

/** `📄 #3 Fix login · bridge/fix-login-x… against 1a2b3c4: 2 commits, 3 files changed (+10 −2)`, and what is not in it. */
export function diffCaption(diff: Extract<ReviewDiff, { ok: true }>): RichText {
  const { run } = diff;
  const head = rich`📄 #${run.number} ${displayName(run)} · ${code(diff.branch)} against ${code(diff.base.slice(0, 7))}: ${changeCounts(diff, diff.commitCount)}`;
  return lines([head, ...notIncluded(diff)]);
}

/** A branch with nothing committed: said, rather than an empty file. */
export function emptyDiffText(diff: Extract<ReviewDiff, { ok: true }>): RichText {
  const { run } = diff;
  return lines([rich`#${run.number} ${displayName(run)}: ${code(diff.branch)} has no committed changes.`, ...notIncluded(diff)]);
}

function notIncluded(diff: Extract<ReviewDiff, { ok: true }>): string[] {
  const extra: string[] = [];
  const n = diff.uncommittedFiles;
  if (n) extra.push(`${n} file${n === 1 ? '' : 's'} left uncommitted in its worktree ${n === 1 ? 'is' : 'are'} not included (nor merged).`);
  if (diff.truncated) extra.push(`The diff is cut short: this is its first ${(Buffer.byteLength(diff.diff) / 1024 / 1024).toFixed(1)} MB.`);
  return extra;
}

export function mergedText(result: Extract<ReviewMerge, { ok: true }>): RichText {
  const { run, merge } = result;
  const done = rich`🔀 Merged #${run.number} ${displayName(run)} into ${code(merge.into)} in ${code(displayPath(merge.repoRoot))} as ${code(merge.commit.slice(0, 7))}: ${changeCounts(merge, merge.commits)}.`;
  const after = result.removed
    ? rich`Its worktree and branch ${code(run.worktree!.branch)} are removed.`
    : rich`Its worktree is kept (${result.kept ?? 'it could not be removed'}); ${code(`/discard ${run.number}`)} removes it.`;
  return lines([done, after]);
}

export function discardedText(result: Extract<ReviewDiscard, { ok: true }>): RichText {
  const { run } = result;
  const lost = [
    ...(result.commits ? [`${result.commits} unmerged commit${result.commits === 1 ? '' : 's'}`] : []),
    ...(result.uncommittedFiles ? [`${result.uncommittedFiles} uncommitted file${result.uncommittedFiles === 1 ? '' : 's'}`] : []),
  ];
  const tail = lost.length ? `, with ${lost.join(' and ')}` : '';
  return rich`🗑 Discarded #${run.number} ${displayName(run)}: its worktree and branch ${code(run.worktree!.branch)} are removed${tail}.`;
}

/** A discard that would lose commits: asked first, with the number it would lose on the button. */
export function discardQuestion(run: SubagentRunRecord, refusal: ReviewRefused): { text: RichText; buttons: Button[][] } {
  const commits = refusal.unmerged ?? 0;
  return {
    text: plain(`🗑 Discard? ${refusal.message}`),
    buttons: [
      [REVIEW.button(`🗑 Discard ${commits} unmerged commit${commits === 1 ? '' : 's'}`, { action: 'confirm', runId: run.runId, commits })],
      [REVIEW.button('Keep', { action: 'keep', runId: run.runId })],
    ],
  };
}

export function keptText(run: SubagentRunRecord): RichText {
  return rich`Kept #${run.number} ${displayName(run)}: its worktree and branch ${code(run.worktree?.branch ?? '')} stay.`;
}

/** A review that did nothing: why, and what to do. */
export function refusedText(refusal: ReviewRefused): RichText {
  return plain(`${refusal.refusal === 'not_allowed' ? '⛔' : '⚠️'} ${refusal.message}`);
}

/** `2 commits, 3 files changed (+10 −2)`. */
export function changeCounts(counts: DiffCounts, commits: number): string {
  const files = `${counts.filesChanged} file${counts.filesChanged === 1 ? '' : 's'} changed (+${counts.insertions} −${counts.deletions})`;
  return `${commits} commit${commits === 1 ? '' : 's'}, ${files}`;
}
