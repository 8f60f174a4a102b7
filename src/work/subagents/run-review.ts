import type { AuditEntry, AuditLog } from '../../kernel/audit/audit-log.ts';
import { discardWorktree, mergeWorktree, worktreeDiff, type MergeRefusal, type MergeResult, type WorktreeDiff } from '../../engine/worktrees/index.ts';
import { displayName, findRun, isActive, type SubagentRunRecord } from './record.ts';
import type { RunStore } from './run-store.ts';

/** Who asks to review a run: a person of its chat, as their transport names them. */
export interface Reviewer {
  transport: string;
  userId: string;
  name?: string;
  /** An owner (BRIDGE_OWNERS, by default the first of BRIDGE_ALLOWED_USERS) may merge and discard any run. */
  owner: boolean;
  /** An admin (BRIDGE_ADMINS), asking in the run's chat or of a run they may see: they may merge and discard any run of their chats. */
  admin?: boolean;
  /** How they asked, for the audit log: "button", "/merge", "dashboard"… */
  via?: string;
}

export type ReviewRefusal = 'not_allowed' | 'worker' | 'no_worktree' | 'removed' | 'running' | 'busy' | MergeRefusal | 'unconfirmed' | 'uncommitted';

/** A review that did nothing, and why, in a sentence for the person who asked. */
export interface ReviewRefused {
  ok: false;
  refusal: ReviewRefusal;
  message: string;
  /** Conflicting, changed or in-the-way files (a merge). */
  files?: string[];
  /** Commits only the run's branch holds: what a discard must have confirmed (see `discard`). */
  unmerged?: number;
}

export type ReviewDiff = ({ ok: true; run: SubagentRunRecord } & WorktreeDiff) | ReviewRefused;
export type ReviewMerge =
  | { ok: true; run: SubagentRunRecord; merge: Extract<MergeResult, { ok: true }>; removed: boolean; /** Why the worktree stays. */ kept?: string }
  | ReviewRefused;
export type ReviewDiscard = { ok: true; run: SubagentRunRecord; commits: number; uncommittedFiles: number } | ReviewRefused;

export interface RunReviewOptions {
  store: RunStore;
  audit: AuditLog;
  /** Why the checkout at this path should not be merged into now (a turn or run working in it), or undefined. */
  checkoutBusy?: (repoRoot: string) => string | undefined;
}

/**
 * What a person can do with a run that worked in a git worktree, for a chat's commands and
 * buttons and for a web page alike: its diff (every member of the chat), and merging or
 * discarding it (the owner, or the person who spawned it: a merge changes the chat's checkout,
 * a discard loses work). Merges and discards, refused or done, go to the audit log with who
 * asked; the run's record says what became of its worktree.
 */
export class RunReview {
  constructor(private readonly options: RunReviewOptions) {}

  /** `3`, `#3`, an id or an id prefix, among a chat's runs: the live ones, then those archived (whose worktrees may still wait for review). */
  async find(chatKey: string, ref: string): Promise<SubagentRunRecord | undefined> {
    const found = findRun(this.options.store.forChat(chatKey), ref);
    if (found) return found;
    const archived = (await this.options.store.archived()).filter((run) => run.requesterKey === chatKey).reverse();
    return findRun(archived, ref);
  }

  /** Whether this person may merge or discard the run: the owner, or whoever spawned it. */
  mayChange(run: SubagentRunRecord, who: Reviewer): boolean {
    const { requester } = run;
    return who.owner || who.admin === true || (requester.kind === 'user' && requester.userId === who.userId && run.chat.transport === who.transport);
  }

  /** The run's branch against the commit it was made from (see worktreeDiff). */
  async diff(run: SubagentRunRecord, options: { maxBytes?: number } = {}): Promise<ReviewDiff> {
    const missing = this.unavailable(run, 'diffed');
    if (missing) return missing;
    const diff = await worktreeDiff(run.worktree!, options);
    if (!diff.ok) return refused('removed', `#${run.number} ${displayName(run)} has nothing to show: ${diff.message}.`);
    return { ...diff, run };
  }

  /**
   * Merges the run's branch into the branch checked out where its worktree was made from (see
   * mergeWorktree), then removes its worktree and branch if that loses nothing.
   */
  async merge(run: SubagentRunRecord, who: Reviewer): Promise<ReviewMerge> {
    const refusal = this.unavailable(run, 'merged') ?? this.mayNot(run, who, 'merge') ?? this.stillRunning(run, 'merged');
    if (refusal) return this.audited(run, who, 'merge', refusal);
    const wt = run.worktree!;
    const busy = this.options.checkoutBusy?.(wt.repoRoot);
    if (busy) return this.audited(run, who, 'merge', refused('busy', `#${run.number} was not merged: ${busy}. Merge once it is done.`));
    const by = reviewerName(who);
    // The commit names the person, not their transport id: a repository may be pushed where everyone reads it.
    const from = `merged from the chat${who.name ? ` by ${who.name}` : ''}`;
    const merge = await mergeWorktree(wt, { message: `Merge ${wt.branch} (run #${run.number} ${displayName(run)}, ${from})` });
    if (!merge.ok) {
      const message = `#${run.number} ${displayName(run)} was not merged: ${merge.message}. Nothing was changed.`;
      return this.audited(run, who, 'merge', refused(merge.refusal, message, merge.files));
    }
    const removal = await discardWorktree(wt, { keepUncommitted: true });
    const merged = { into: merge.into, commit: merge.commit, by, at: Date.now() };
    const updated = await this.update(run, { merged, ...(removal.ok ? { removed: true } : {}) });
    await this.record(run, who, 'merge', 'merged', `${wt.branch} into ${merge.into} in ${merge.repoRoot} as ${merge.commit}`);
    return { ok: true, run: updated, merge, removed: removal.ok, ...(removal.ok ? {} : { kept: removal.message }) };
  }

  /**
   * Removes the run's worktree and branch (see discardWorktree). When its branch holds commits
   * merged nowhere else, the first call is refused as `unconfirmed` with their number, which
   * the person confirms by calling again with it.
   */
  async discard(run: SubagentRunRecord, who: Reviewer, options: { confirmedCommits?: number } = {}): Promise<ReviewDiscard> {
    const refusal = this.unavailable(run, 'discarded') ?? this.mayNot(run, who, 'discard') ?? this.stillRunning(run, 'discarded');
    if (refusal) return this.audited(run, who, 'discard', refusal);
    const wt = run.worktree!;
    const result = await discardWorktree(wt, options);
    if (!result.ok) {
      if (result.refusal === 'unconfirmed') {
        const message = `#${run.number} ${displayName(run)}: ${result.message}; discarding it loses them.`;
        return refused('unconfirmed', message, undefined, result.unmerged);
      }
      const refusal = refused(result.refusal === 'gone' ? 'removed' : 'failed', `#${run.number} was not discarded: ${result.message}.`);
      return this.audited(run, who, 'discard', refusal);
    }
    const updated = await this.update(run, { removed: true, discarded: { by: reviewerName(who), at: Date.now() } });
    const lost = `${result.commits} unmerged commit${result.commits === 1 ? '' : 's'}, ${result.uncommittedFiles} uncommitted file${result.uncommittedFiles === 1 ? '' : 's'}`;
    await this.record(run, who, 'discard', 'discarded', `${wt.branch} and ${wt.path} (${lost})`);
    return { ok: true, run: updated, commits: result.commits, uncommittedFiles: result.uncommittedFiles };
  }

  /** Why the run has no worktree here to act on: on a worker's machine, never made, or removed. */
  private unavailable(run: SubagentRunRecord, done: string): ReviewRefused | undefined {
    const name = `#${run.number} ${displayName(run)}`;
    if (run.worker) {
      return refused('worker', `${name} ran on the worker ${run.worker}: its worktree is on that machine, so it cannot be ${done} from here.`);
    }
    const wt = run.worktree;
    if (!wt) {
      if (run.isolate && isActive(run)) return refused('no_worktree', `${name} has not made its worktree yet.`);
      return refused('no_worktree', `${name} did not work in a worktree (/spawn --worktree makes one), so there is nothing to review.`);
    }
    if (wt.removed) {
      const how = [wt.merged && `merged into ${wt.merged.into} by ${wt.merged.by}`, wt.discarded && `discarded by ${wt.discarded.by}`].filter(Boolean);
      return refused('removed', `${name}'s worktree and branch ${wt.branch} were removed (${how.join(', then ') || 'after its retention'}).`);
    }
    return undefined;
  }

  private mayNot(run: SubagentRunRecord, who: Reviewer, action: 'merge' | 'discard'): ReviewRefused | undefined {
    if (this.mayChange(run, who)) return undefined;
    const { requester } = run;
    const allowed =
      requester.kind === 'user' ? `an owner, an admin or ${requester.name ?? `user ${requester.userId}`} (who started it)` : 'an owner or an admin';
    return refused('not_allowed', `Only ${allowed} may ${action} #${run.number} ${displayName(run)}.`);
  }

  private stillRunning(run: SubagentRunRecord, done: string): ReviewRefused | undefined {
    if (!isActive(run)) return undefined;
    return refused('running', `#${run.number} ${displayName(run)} is still running: it can be ${done} once it ends (or is stopped).`);
  }

  /** Notes on the live record what became of the worktree; an archived run's record stays as it was archived. */
  private async update(run: SubagentRunRecord, patch: Partial<NonNullable<SubagentRunRecord['worktree']>>): Promise<SubagentRunRecord> {
    const { store } = this.options;
    const current = store.get(run.runId);
    if (!current?.worktree) return { ...run, worktree: { ...run.worktree!, ...patch } };
    const { kept: _, ...worktree } = current.worktree;
    const updated = { ...current, worktree: { ...worktree, ...patch } };
    await store.save(updated);
    return updated;
  }

  private async audited<T extends ReviewRefused>(run: SubagentRunRecord, who: Reviewer, event: 'merge' | 'discard', refusal: T): Promise<T> {
    await this.record(run, who, event, `refused: ${refusal.refusal.replace('_', ' ')}`, refusal.message);
    return refusal;
  }

  private async record(run: SubagentRunRecord, who: Reviewer, event: 'merge' | 'discard', decision: string, detail: string): Promise<void> {
    const { audit, store } = this.options;
    const entry: Omit<AuditEntry, 'time'> = {
      event,
      runId: run.runId,
      chat: run.requesterKey,
      by: reviewerName(who),
      decision,
      detail: who.via ? `${detail} (via ${who.via})` : detail,
    };
    await audit.record(entry);
    // An ended run's counts live on its record (the audit log forgot them when it ended).
    const current = store.get(run.runId);
    if (current && !isActive(current) && current.auditCounts) {
      audit.forget(run.runId);
      await store.save({ ...current, auditCounts: { ...current.auditCounts, [event]: (current.auditCounts[event] ?? 0) + 1 } });
    }
  }
}

/** "Ada (<transport>:<user id>)": a name alone may be anyone's. */
function reviewerName(who: Reviewer): string {
  const id = `${who.transport}:${who.userId}`;
  return who.name ? `${who.name} (${id})` : id;
}

function refused(refusal: ReviewRefusal, message: string, files?: string[], unmerged?: number): ReviewRefused {
  return { ok: false, refusal, message, files, unmerged };
}
