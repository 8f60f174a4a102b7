/** One line of `npm run doctor`: what was checked, what was found, and what to do when it is wrong. */
export interface CheckResult {
  ok: boolean;
  /** What was checked: "Node", "data directory", "claude". */
  subject: string;
  /** What was found. */
  found: string;
  /** On ✗ (or a warning): what to do about it. */
  fix?: string;
  /** Works, but not as it should: shown with ! and not counted as wrong. */
  warning?: boolean;
  /** Not there, and nothing needs it: shown with – and not counted as wrong. */
  optional?: boolean;
}

export const pass = (subject: string, found: string): CheckResult => ({ ok: true, subject, found });
export const fail = (subject: string, found: string, fix: string): CheckResult => ({ ok: false, subject, found, fix });

export const warn = (subject: string, found: string, fix: string): CheckResult => ({ ok: true, warning: true, subject, found, fix });

export const optional = (subject: string, found: string, fix: string): CheckResult => ({ ok: true, optional: true, subject, found, fix });

export function formatCheck(result: CheckResult): string {
  if (result.ok && !result.warning && !result.optional) return `✓ ${result.subject}: ${result.found}`;
  const mark = result.warning ? '!' : result.optional ? '–' : '✗';
  return `${mark} ${result.subject}: ${result.found.replace(/\.$/, '')}. ${result.fix}`;
}

/** The first line of an error or of a command's output: enough to recognise, short enough for one line. */
export function firstLine(text: string, max = 200): string {
  const line = text.trim().split('\n')[0] ?? '';
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
