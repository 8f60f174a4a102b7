import { idButton } from '../../kernel/ports/buttons.ts';
import type { AgentEvent } from '../../kernel/protocols/events.ts';
import { displayName, isActive, runtimeMs, type RunStatus, type SubagentRunRecord } from '../subagents/record.ts';
import { truncate } from './format/index.ts';
import type { Button } from '../../kernel/ports/chat.ts';
import { bold, code, italic, lines, plain, pre, rich, type RichText } from '../../kernel/rich/index.ts';
import { timeAgo } from './relative-time.ts';
import { formatCost, formatDuration } from './progress.ts';
import { toolSummary } from './tool-summary.ts';

/** As its announcement says it: ✅ completed, ❌ any other end (the word beside it says which). */
export const STATUS_ICON: Record<RunStatus, string> = {
  queued: '⏳',
  running: '⚙️',
  completed: '✅',
  failed: '❌',
  stopped: '❌',
  timed_out: '❌',
  interrupted: '❌',
};

/** One line per run: `#3 Research · ⚙️ running · claude · 0:42 · id`. */
export function runList(runs: SubagentRunRecord[], queuePosition: (run: SubagentRunRecord) => number): RichText {
  if (!runs.length) return rich`No subagent runs in this chat. Start one with ${code('/spawn "task"')}.`;
  const rows = runs.map((run) => {
    const status = run.status === 'queued' ? `queued (${queuePosition(run)} in line)` : run.status.replace('_', ' ');
    const cli = run.model ? `${run.cli}/${run.model}` : run.cli;
    const time = run.startedAt ? formatDuration(runtimeMs(run)) : '–';
    const text = `#${run.number} ${displayName(run)} · ${STATUS_ICON[run.status]} ${status} · ${cli} · ${time}`;
    return rich`${text} · ${code(run.runId)}`;
  });
  return lines([bold('Subagents'), ...rows]);
}

/**
 * Every field of the record, for /subagents info, as a card a person reads: a line a field,
 * nested fields by their path (`limits.timeoutSeconds`), times as the UTC time and how long ago,
 * durations as durations. The operator's MCP servers (the run's, its agents') by name only:
 * their `env` and `headers` are secrets.
 */
export function runInfo(run: SubagentRunRecord, extra: Record<string, unknown> = {}, now = Date.now()): RichText {
  const { mcpServers, agents, ...rest } = run;
  const agentsShown =
    agents &&
    Object.fromEntries(Object.entries(agents).map(([slug, agent]) => [slug, { ...agent, mcpServers: agent.mcpServers?.flatMap((s) => Object.keys(s)) }]));
  const shown = { ...rest, agents: agentsShown, ...(mcpServers ? { mcpServers: Object.keys(mcpServers) } : {}), ...extra };
  const body = truncate(fieldLines(shown, '', now).join('\n'), 3800);
  return lines([bold(`#${run.number} ${displayName(run)}`), body]);
}

/** `path: value` for each field that has a value, objects opened up into their own fields. */
function fieldLines(value: Record<string, unknown>, prefix: string, now: number): string[] {
  return Object.entries(value).flatMap(([key, field]) => {
    const path = `${prefix}${key}`;
    if (field === undefined || field === null || field === '') return [];
    if (Array.isArray(field)) {
      if (!field.length) return [];
      if (field.every((item) => typeof item !== 'object' || item === null)) return [`${path}: ${truncate(field.join(', '), 600)}`];
      return field.flatMap((item, i) =>
        typeof item === 'object' && item ? fieldLines(item as Record<string, unknown>, `${path}.${i}.`, now) : [`${path}.${i}: ${String(item)}`],
      );
    }
    if (typeof field === 'object') return fieldLines(field as Record<string, unknown>, `${path}.`, now);
    if (typeof field === 'number' && key.endsWith('At'))
      return [`${path}: ${new Date(field).toISOString().slice(0, 19).replace('T', ' ')} UTC (${timeAgo(now - field)})`];
    if (typeof field === 'number' && key.endsWith('Ms')) return [`${path}: ${formatDuration(field)}`];
    return [`${path}: ${truncate(typeof field === 'string' ? field : JSON.stringify(field), 600)}`];
  });
}

/**
 * The last `count` steps of a run and what it has said so far, from its decoded log:
 * readable, not raw JSON.
 */
export function runLog(run: SubagentRunRecord, events: AgentEvent[], count: number): RichText {
  const steps: { text: string; state: string }[] = [];
  const index = new Map<string, number>();
  let lastText = '';
  const logLines: string[] = [];
  for (const event of events) {
    if (event.type === 'tool_start') {
      index.set(event.id, steps.length);
      const summary = truncate(toolSummary(event.name, event.input), 80);
      steps.push({ text: `${event.parentId ? '   ' : ''}${event.name}${summary ? ` ${summary}` : ''}`, state: '▸' });
    } else if (event.type === 'tool_end') {
      const at = index.get(event.id);
      if (at !== undefined) steps[at]!.state = event.isError ? '✗' : '✓';
    } else if (event.type === 'text' && !event.parentId) lastText = event.text;
    else if (event.type === 'error') logLines.push(`error: ${event.message}`);
  }
  const shown = steps.slice(-count);
  const head = `📜 #${run.number} ${displayName(run)} · ${STATUS_ICON[run.status]} ${run.status.replace('_', ' ')} · ${formatDuration(runtimeMs(run))}`;
  const stepLines = [
    ...(steps.length > shown.length ? [`… ${steps.length - shown.length} earlier steps`] : []),
    ...shown.map((s) => `${s.state} ${s.text}`),
    ...logLines.slice(-3),
  ];
  const ended = !isActive(run);
  if (!stepLines.length) stepLines.push(run.status === 'queued' ? 'Not started yet.' : ended ? 'No tool calls: it worked without tools.' : 'No steps yet.');
  // An ended run's answer is its result (or its error), whatever text came before it.
  const said = truncate((ended ? (run.result ?? run.error) : undefined) ?? lastText, 1500);
  return lines([
    bold(head),
    pre(stepLines.join('\n')),
    ...(said ? [rich`${bold(ended ? (run.error && !run.result ? 'Error' : 'Result') : 'Latest text')}\n${said}`] : []),
  ]);
}

/** The answer to stopping a run, in the chat or from the dashboard: its end is announced when it comes. */
export function stoppingRunText(run: SubagentRunRecord): RichText {
  return plain(`⏹ Stopping #${run.number} ${displayName(run)}.`);
}

/** A run's Stop button: the payload is its id. */
export const STOP_RUN = idButton('sa');

/** The Stop button every spawn answer carries. */
export function stopButton(run: SubagentRunRecord): Button {
  return STOP_RUN.button(`⏹ Stop #${run.number}`, run.runId);
}

/** Which of the chat's permission modes binds a run, in the answer to its spawn. */
const MODE_NOTE: Record<NonNullable<SubagentRunRecord['chatMode']>, string> = {
  safe: '🔒 Safe mode: it only reads.',
  ask: '🙋 Ask mode: tools that need permission are asked here.',
  bypass: 'Bypass mode: tools run without asking.',
};

/** What a run with a budget may spend, and, when the person's day left less than asked, that their day binds. */
function budgetNote(run: SubagentRunRecord): string {
  const budget = run.budget;
  if (!budget) return '';
  if (budget.askedUsd === undefined) return `\n💸 Budget ${formatCost(budget.usd)}: stopped for cost once reached.`;
  return `\n💸 Budget ${formatCost(budget.usd)}, what is left of the daily budget of the person who started it (${formatCost(budget.askedUsd)} was asked): stopped for cost once reached.`;
}

/** The answer to a spawn: its number, label, CLI and id, and whether it had to queue. */
export function spawnedText(run: SubagentRunRecord, queuePosition: number, byAgent = false): RichText {
  const what = `${queuePosition ? `⏳ #${run.number} queued (${queuePosition} in line)` : `🚀 #${run.number} started`}${byAgent ? ' by the agent' : ''}`;
  const text = `${what}: ${displayName(run)} · ${run.cli}${run.model ? `/${run.model}` : ''} · id ${run.runId}`;
  const note = queuePosition ? 'It starts when a slot frees; the result is announced here.' : 'The result is announced here when it ends.';
  // A bypass chat's run that asks all the same (--ask, or an agent's run past its own session's tools) says it asks.
  const shown = run.chatMode === 'bypass' && run.policy?.approvals && !run.policy.ruledOnly ? 'ask' : run.chatMode;
  const mode = shown ? `\n${MODE_NOTE[shown]}` : '';
  return lines([text + mode + budgetNote(run), italic(note)]);
}
