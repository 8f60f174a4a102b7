import { documentPreview, escapeHtml, splitForTelegram } from './format/index.ts';
import type { ChatRef, MessageRef, Outbound, RichText, SendOptions } from '../ports/transport.ts';

export interface DeliverOptions extends SendOptions {
  /** Longer answers go as a Markdown document with a short preview. */
  documentOverChars: number;
  /** A line (already rich) put before the answer, e.g. an announcement's header. */
  header?: RichText;
  /** A line (already rich) put after the answer's last message, e.g. a turn's stats. */
  footer?: RichText;
  filename?: string;
}

/** C0 controls but tab and newline, and DEL. */
// eslint-disable-next-line no-control-regex
const INVISIBLE_CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f]/g;

/** One message of a delivery. */
export type Part =
  { kind: 'text'; text: RichText; options: SendOptions } | { kind: 'document'; filename: string; content: string; caption: RichText; options: SendOptions };

/**
 * How an agent's Markdown answer goes out: rendered and split into message-sized chunks at
 * block or line boundaries, or (when very long) one document with a preview. Nothing is cut
 * silently. Buttons and the reply go on the first message.
 */
export function planMarkdown(markdown: string, options: DeliverOptions): Part[] {
  const { header } = options;
  const first: SendOptions = { replyTo: options.replyTo, buttons: options.buttons };
  // Control characters (a NUL the agent echoed, say) show nothing, and a message of nothing else is refused.
  const body = markdown.replace(INVISIBLE_CONTROLS, '').trim() || '_(no text in the answer)_';
  if (body.length > options.documentOverChars) {
    const size = `Full answer (${body.length.toLocaleString('en-US')} characters) attached.`;
    const caption: RichText = {
      html: [header?.html, documentPreview(body, 700), `<i>${size}</i>`].filter(Boolean).join('\n\n'),
      plain: [header?.plain, size].filter(Boolean).join('\n\n'),
    };
    return [{ kind: 'document', filename: options.filename ?? 'answer.md', content: body, caption, options: first }];
  }
  const { footer } = options;
  const lineRoom = (line: RichText | undefined) => (line ? Math.max(line.html.length, line.plain.length) + 2 : 0);
  const chunks = splitForTelegram(body, 4096 - lineRoom(header) - lineRoom(footer));
  return chunks.map((chunk, index) => {
    const withHeader = index === 0 && header ? { html: `${header.html}\n\n${chunk.html}`, plain: `${header.plain}\n\n${chunk.plain}` } : chunk;
    const text =
      index === chunks.length - 1 && footer ? { html: `${withHeader.html}\n\n${footer.html}`, plain: `${withHeader.plain}\n\n${footer.plain}` } : withHeader;
    return { kind: 'text', text, options: index === 0 ? first : {} };
  });
}

export function sendPart(out: Outbound, to: ChatRef, part: Part): Promise<MessageRef> {
  return part.kind === 'text'
    ? out.send(to, part.text, part.options)
    : out.sendDocument(to, { filename: part.filename, content: part.content, caption: part.caption }, part.options);
}

export async function deliverMarkdown(out: Outbound, to: ChatRef, markdown: string, options: DeliverOptions): Promise<MessageRef[]> {
  const refs: MessageRef[] = [];
  for (const part of planMarkdown(markdown, options)) refs.push(await sendPart(out, to, part));
  return refs;
}

/** Plain words, escaped for the rich side. */
export function plain(text: string): RichText {
  return { html: escapeHtml(text), plain: text };
}

/** A bold first line and an optional body, both escaped. */
export function titled(title: string, body?: string): RichText {
  return {
    html: `<b>${escapeHtml(title)}</b>${body ? `\n${escapeHtml(body)}` : ''}`,
    plain: `${title}${body ? `\n${body}` : ''}`,
  };
}
