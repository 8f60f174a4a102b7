import type { Conversation } from './conversation.ts';
import { conversationJson } from './export-json.ts';
import { conversationMarkdown } from './export-markdown.ts';
import { longestFit } from '../presentation/format/split.ts';

export interface ExportFile {
  filename: string;
  content: string;
}

export type ExportFiles =
  { ok: true; files: [ExportFile, ExportFile]; /** What was left out to fit, in a sentence. */ leftOut?: string } | { ok: false; error: string };

/**
 * The conversation as a Markdown and a JSON file, each within `limitBytes` (the chat app's
 * upload limit): when the whole does not fit, the oldest turns are left out (and, should the
 * newest alone be too big, that turn's oldest steps), and both files say so.
 */
export function exportFiles(conversation: Conversation, name: string, limitBytes: number, exportedAt = new Date()): ExportFiles {
  const render = (shown: Conversation, leftOut?: string): [ExportFile, ExportFile] => [
    { filename: `${name}.md`, content: conversationMarkdown(shown, exportedAt, leftOut) },
    { filename: `${name}.json`, content: conversationJson(shown, exportedAt, leftOut) },
  ];
  const fits = (files: ExportFile[]) => files.every((file) => Buffer.byteLength(file.content) <= limitBytes);
  const whole = render(conversation);
  if (fits(whole)) return { ok: true, files: whole };
  const limit = megabytes(limitBytes);
  const { turns } = conversation;
  // The most recent turns that fit, found by halving: rendering is linear, the turns may be many.
  const keptTurns = (kept: number) => {
    const dropped = turns.length - kept;
    const leftOut = `The first ${dropped} of ${turns.length} turns are left out: the whole would be over this chat's limit of ${limit} a file.`;
    return { files: render({ ...conversation, turns: turns.slice(dropped) }, leftOut), leftOut };
  };
  const turnsKept = longestFit(-1, turns.length - 1, (kept) => fits(keptTurns(kept).files));
  if (turnsKept > 0) return { ok: true, ...keptTurns(turnsKept) };
  const last = turns.at(-1);
  if (!last) return { ok: false, error: `Even an empty export is over this chat's limit of ${limit} a file.` };
  const keptSteps = (kept: number) => {
    const dropped = last.steps.length - kept;
    const leftOut = `Only the last turn is here, without its first ${dropped} of ${last.steps.length} steps: the whole would be over this chat's limit of ${limit} a file.`;
    return { files: render({ ...conversation, turns: [{ ...last, steps: last.steps.slice(dropped) }] }, leftOut), leftOut };
  };
  const stepsKept = longestFit(-1, last.steps.length, (kept) => fits(keptSteps(kept).files));
  if (stepsKept >= 0 && fits(keptSteps(stepsKept).files)) return { ok: true, ...keptSteps(stepsKept) };
  return { ok: false, error: `Even the last turn alone is over this chat's limit of ${limit} a file.` };
}

function megabytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB` : `${Math.round(bytes / 1024)} KB`;
}
