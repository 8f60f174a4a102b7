import type { Conversation, ConversationTurn, TurnStep } from './conversation.ts';
import { formatDuration, formatCost } from '../presentation/progress.ts';
import { escapeHtmlText } from '../../kernel/rich/html.ts';

/**
 * A conversation as Markdown a person reads (GitHub, an editor's preview): each turn's prompt
 * quoted, the agent's prose as it wrote it, and each tool call folded into a `<details>` block
 * with its input and the start of its output.
 */
export function conversationMarkdown(conversation: Conversation, exportedAt: Date, leftOut?: string): string {
  const facts = [
    `Chat: ${conversation.chat}`,
    `CLI: ${conversation.cli}${conversation.model ? ` (${conversation.model})` : ''}`,
    ...(conversation.session ? [`Session: \`${conversation.session}\``] : []),
    ...(conversation.status ? [`Status: ${conversation.status}`] : []),
    `${conversation.turns.length} turn${conversation.turns.length === 1 ? '' : 's'}`,
    `Exported ${isoMinute(exportedAt)}`,
  ];
  const notes = [
    ...(conversation.earlierTurnsGone
      ? ['> Earlier turns of this conversation are not in the bridge’s record: they happened elsewhere (a terminal) or are no longer kept.']
      : []),
    ...(leftOut ? [`> ${leftOut}`] : []),
  ];
  return [
    `# ${escapeLine(conversation.title)}`,
    facts.join(' · '),
    ...(notes.length ? [notes.join('\n>\n')] : []),
    ...conversation.turns.map((turn, index) => turnMarkdown(turn, index + 1)),
  ]
    .join('\n\n')
    .concat('\n');
}

function turnMarkdown(turn: ConversationTurn, number: number): string {
  const sender = who(turn.sender, turn.by);
  const heading = [`Turn ${number}`, isoMinute(new Date(turn.at)), ...(sender ? [escapeLine(sender)] : [])].join(' · ');
  const parts = [`---\n\n## ${heading}`];
  if (turn.prompt !== undefined) parts.push(quoted(turn.prompt));
  else parts.push('_A message sent to the run._');
  for (const step of turn.steps) parts.push(stepMarkdown(step));
  if (turn.answer) parts.push(`**Answer**\n\n${turn.answer}`);
  if (turn.error) parts.push(`**Error:** ${escapeLine(turn.error)}`);
  const ending = [
    turn.status ?? 'not finished',
    ...(turn.durationMs !== undefined ? [formatDuration(turn.durationMs)] : []),
    ...(turn.costUsd !== undefined ? [formatCost(turn.costUsd)] : []),
  ];
  parts.push(`_${ending.join(' · ')}_`);
  return parts.join('\n\n');
}

function stepMarkdown(step: TurnStep): string {
  if (step.kind === 'text') return step.nested ? quoted(step.text) : step.text;
  if (step.kind === 'message') {
    const sender = who(step.sender, step.by);
    return `**Sent while it worked${sender ? ` by ${escapeLine(sender)}` : ''}:**\n\n${quoted(step.text)}`;
  }
  const mark = step.output === undefined ? '…' : step.isError ? '✗' : '✓';
  const summary = `🔧 ${escapeHtmlText(step.name)}${step.summary ? `: ${escapeHtmlText(oneLine(step.summary))}` : ''} ${mark}${step.nested ? ' (inside a subagent)' : ''}`;
  return [
    `<details>\n<summary>${summary}</summary>`,
    `Input:\n\n${fenced(step.input, 'json')}`,
    step.output === undefined ? '_No output: the call had not ended._' : `${step.isError ? 'Error' : 'Output'}:\n\n${fenced(step.output)}`,
    '</details>',
  ].join('\n\n');
}

/** Text in a code block whose fence no run of backticks inside it closes. */
function fenced(text: string, language = ''): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((match) => match[0].length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}${language}\n${text}\n${fence}`;
}

function quoted(text: string): string {
  return text
    .split('\n')
    .map((line) => (line ? `> ${line}` : '>'))
    .join('\n');
}

/** Who sent something, as the export names them: `Ada (<transport>:<id>)`, or whichever of the two is known. */
function who(sender: string | undefined, by: string | undefined): string | undefined {
  return sender && by ? `${sender} (${by})` : (sender ?? by);
}

const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();
/** A line of ours with someone's words in it: no Markdown of theirs begins a heading or a list there. */
const escapeLine = (text: string) => oneLine(text).replace(/([\\`*_[\]<>])/g, '\\$1');
const isoMinute = (date: Date) => `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
