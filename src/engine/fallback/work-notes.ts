import type { AgentEvent } from '../../kernel/protocols/events.ts';
import { isObject } from '../../kernel/protocols/decoder.ts';
import type { WorkNotes } from '../../kernel/store/chat-store.ts';

/** Answers kept, and how much of each: a brief, not a transcript. */
const ANSWERS_KEPT = 3;
const ANSWER_CHARS = 1500;
const FILES_KEPT = 30;
const TASK_CHARS = 2000;

export function freshNotes(cli: string): WorkNotes {
  return { cli, answers: [], files: [] };
}

/** What one turn did as it went: its tool calls, and the one at work when it stopped. */
export class TurnWatcher {
  readonly files: string[] = [];
  private readonly open = new Map<string, string>();
  lastText = '';

  observe(event: AgentEvent): void {
    if ('parentId' in event && event.parentId) return;
    if (event.type === 'tool_start') {
      this.open.set(event.id, `${event.name} ${whatItDoes(event.input)}`.trim());
      for (const file of filesOf(event.name, event.input)) if (!this.files.includes(file)) this.files.push(file);
    } else if (event.type === 'tool_end') this.open.delete(event.id);
    else if (event.type === 'text') this.lastText = event.text;
  }

  /** The tool call started and not ended: what the CLI was doing when the limit stopped it. */
  get inFlight(): string | undefined {
    return [...this.open.values()].at(-1);
  }
}

/** The notes after a turn that ended with an answer. */
export function noted(notes: WorkNotes, prompt: string, answer: string, files: readonly string[]): WorkNotes {
  const merged = [...notes.files.filter((file) => !files.includes(file)), ...files].slice(-FILES_KEPT);
  const answers = answer ? [...notes.answers, { prompt: clip(prompt, ANSWER_CHARS), answer: clip(answer, ANSWER_CHARS) }].slice(-ANSWERS_KEPT) : notes.answers;
  return { cli: notes.cli, task: notes.task ?? clip(prompt, TASK_CHARS), answers, files: merged };
}

/** The argument that says what a tool call does (its command, file, pattern…), on one line. */
function whatItDoes(input: unknown): string {
  if (!isObject(input)) return '';
  const said = ['command', 'file_path', 'path', 'pattern', 'url', 'query', 'description'].map((key) => input[key]).find((value) => typeof value === 'string');
  return typeof said === 'string' ? oneLine(said) : '';
}

/** The text on one line, cut at 200 characters. */
export function oneLine(text: string): string {
  return clip(text.replace(/\s+/g, ' ').trim(), 200);
}

/** The paths a tool call names: Claude's and droid's file tools, codex's edits. */
function filesOf(name: string, input: unknown): string[] {
  if (!isObject(input)) return [];
  const paths = ['file_path', 'notebook_path', 'path'].map((key) => input[key]).filter((value): value is string => typeof value === 'string' && !!value.trim());
  if (name === 'edit' && Array.isArray(input.changes))
    for (const change of input.changes) if (isObject(change) && typeof change.path === 'string') paths.push(change.path);
  return paths;
}

function clip(text: string, chars: number): string {
  return text.length > chars ? `${text.slice(0, chars)}…` : text;
}
