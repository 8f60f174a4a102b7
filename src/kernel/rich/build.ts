import { compose } from './compose.ts';
import { concat } from './edit.ts';
import { UNSTYLED, type RichText, type RunStyle } from './model.ts';

// Building rich text in the core. A string is always shown as it is, never read as
// markup, so user-supplied text (file names, errors, agent output) is safe anywhere:
//
//   rich`⚠️ ${error.message}\nUsage: ${code(usage)}`
//   lines([bold('Status'), ...rows.map(([k, v]) => rich`${k}: ${code(v)}`)])

/** What goes into rich text: a string (shown as typed) or rich text already built. */
export type Rich = RichText | string;

/** Words shown as they are. */
export function plain(text: string): RichText {
  return compose([{ text, style: UNSTYLED }]);
}

/** Rich text from a template: its literal parts and string values shown as typed, rich values kept. */
export function rich(strings: TemplateStringsArray, ...values: readonly (Rich | number)[]): RichText {
  return concat(strings.flatMap((literal, i) => [plain(literal), ...(i < values.length ? [toRich(values[i]!)] : [])]));
}

export function bold(content: Rich): RichText {
  return styled(content, { bold: true });
}

export function italic(content: Rich): RichText {
  return styled(content, { italic: true });
}

/** Inline code: monospace, e.g. an id or a command to type. */
export function code(content: Rich): RichText {
  return styled(content, { code: true });
}

/** A preformatted block (a tool call, JSON, a log), its language named if known. */
export function pre(text: string, language = ''): RichText {
  return compose([{ text, style: { ...UNSTYLED, pre: language } }]);
}

/** A link; in plain text its target follows the label unless the label shows it. */
export function link(label: string, href: string): RichText {
  return compose([{ text: label || href, style: { ...UNSTYLED, link: { href } } }]);
}

/** Parts on lines of their own. */
export function lines(parts: readonly Rich[]): RichText {
  return join(parts, '\n');
}

/** Parts with `separator` between them. */
export function join(parts: readonly Rich[], separator: Rich): RichText {
  const between = toRich(separator);
  return concat(parts.flatMap((part, i) => (i === 0 ? [toRich(part)] : [between, toRich(part)])));
}

/** A bold first line and an optional body. */
export function titled(title: string, body?: string): RichText {
  return body ? lines([bold(title), body]) : bold(title);
}

function toRich(value: Rich | number): RichText {
  return typeof value === 'object' ? value : plain(String(value));
}

function styled(content: Rich, style: Partial<RunStyle>): RichText {
  const base = toRich(content);
  return { ...base, runs: base.runs.map((run) => ({ ...run, style: { ...run.style, ...style } })) };
}
