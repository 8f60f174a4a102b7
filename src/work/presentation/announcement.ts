import { escapeMarkdown } from './format/index.ts';
import { displayPath } from './paths.ts';
import { changeCounts } from './review.ts';
import { formatCost, formatDuration, formatTokens } from './progress.ts';
import { bold, type RichText } from '../../kernel/rich/index.ts';
import { displayName, runtimeMs, type SubagentRunRecord } from '../subagents/record.ts';

/** `✅ #3 Research · 1:23`: the line every announcement starts with. */
export function announcementHeader(run: SubagentRunRecord): RichText {
  return bold(`${run.status === 'completed' ? '✅' : '❌'} #${run.number} ${displayName(run)} · ${formatDuration(runtimeMs(run))}`);
}

/** The result (Markdown, as the agent wrote it) or the error, then a short stats line. */
export function announcementBody(run: SubagentRunRecord): string {
  const parts: string[] = [];
  if (run.status === 'completed') {
    parts.push(run.result?.trim() || '_(the run finished without a final message)_');
  } else {
    // An announced run has ended: failed, stopped, timed out or interrupted, said as a heading says it.
    const ended = run.status.replace('_', ' ');
    const word = run.stoppedForCost ? 'Stopped for cost' : ended[0]!.toUpperCase() + ended.slice(1);
    parts.push(`**${word}:** ${escapeMarkdown(run.error ?? 'no reason given')}`);
    if (run.result?.trim() && run.result.trim() !== run.error?.trim()) parts.push(`Its last message:\n\n${run.result.trim()}`);
  }
  if (run.worktree) parts.push(worktreeLine(run.worktree, run.worker));
  parts.push(`_${statsLine(run)}_ · 📁 \`${displayPath(run.cwd)}\` · \`${run.runId}\``);
  return parts.join('\n\n');
}

export function statsLine(run: SubagentRunRecord): string {
  const stats = [run.model ? `${run.cli} ${run.model}` : run.cli];
  if (run.turns !== undefined) stats.push(`${run.turns} turn${run.turns === 1 ? '' : 's'}`);
  if (run.steps) stats.push(`${run.steps} tool call${run.steps === 1 ? '' : 's'}`);
  if (run.usage) stats.push(`${formatTokens(run.usage.inputTokens)} in / ${formatTokens(run.usage.outputTokens)} out`);
  if (run.costUsd !== undefined) stats.push(formatCost(run.costUsd));
  return stats.join(' · ');
}

/** Where the run's work is: its branch and what changed there. */
function worktreeLine(worktree: NonNullable<SubagentRunRecord['worktree']>, worker: string | undefined): string {
  const summary = worktree.summary;
  const uncommitted = summary?.uncommittedFiles ? `, ${summary.uncommittedFiles} uncommitted` : '';
  const changes = summary ? `${changeCounts(summary, summary.commits)}${uncommitted}` : 'changes unknown';
  const stat = summary?.stat.trim() ? `\n\n\`\`\`\n${summary.stat.trim()}\n\`\`\`` : '';
  // A worker's worktree is on its machine, out of reach of Diff, Merge and Discard here.
  const where = worker ? `worktree ${worktree.path} on the worker ${escapeMarkdown(worker)}` : `worktree ${worktree.path}`;
  return `🌿 Branch \`${worktree.branch}\` (${where}): ${changes}${stat}`;
}
