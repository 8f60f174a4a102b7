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
  return text.runs.map(({ text, style }) => {
    const span: WebSpan = { text };
    for (const flag of ['bold', 'italic', 'strike', 'code', 'quote'] as const) if (style[flag]) span[flag] = true;
    if (style.pre !== null) span.pre = style.pre;
    if (style.link && /^https?:\/\//i.test(style.link.href)) span.href = style.link.href;
    return span;
  });
}
