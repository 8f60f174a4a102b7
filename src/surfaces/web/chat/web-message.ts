import type { Button, RichText } from '../../../kernel/ports/chat.ts';

/** A styled piece of a message, as the page renders it: text nodes only, never markup. */
export interface WebSpan {
  text: string;
  bold?: true;
  italic?: true;
  strike?: true;
  code?: true;
  quote?: true;
  /** The language of a preformatted block ('' for none). */
  pre?: string;
  /** Only http(s) links become links. */
  href?: string;
}

/** One message of a web chat, as the page shows it: sent by the bridge, or by the person. */
export interface WebMessage {
  id: string;
  from: 'bridge' | 'you';
  spans: WebSpan[];
  buttons?: Button[][];
  /** A file the bridge sent: fetched from /api/chat/files/<id>. */
  file?: { id: string; name: string; photo: boolean };
  replyTo?: string;
  at: number;
  edited?: number;
}

export function spansOf(text: RichText): WebSpan[] {
  return text.runs.map((run) => {
    const { style } = run;
    const href = style.link && /^https?:\/\//i.test(style.link.href) ? style.link.href : undefined;
    return {
      text: run.text,
      ...(style.bold ? { bold: true as const } : {}),
      ...(style.italic ? { italic: true as const } : {}),
      ...(style.strike ? { strike: true as const } : {}),
      ...(style.code ? { code: true as const } : {}),
      ...(style.quote ? { quote: true as const } : {}),
      ...(style.pre !== null ? { pre: style.pre } : {}),
      ...(href ? { href } : {}),
    };
  });
}
