import { documentPreview, escapeHtml, splitForTelegram } from './format/index.ts';
import type { ChatAddress, MessageRef, Outbound, RichText, SendOptions } from './transport.ts';

export interface DeliverOptions extends SendOptions {
  /** Longer answers go as a Markdown document with a short preview. */
  documentOverChars: number;
  /** A line (already rich) put before the answer, e.g. an announcement's header. */
  header?: RichText;
  filename?: string;
}

/**
 * Sends an agent's Markdown answer: rendered, split into message-sized chunks at block or
 * line boundaries, or (when very long) as a document with a preview. Nothing is cut silently.
 * Buttons and the reply go on the first message.
 */
export async function deliverMarkdown(out: Outbound, to: ChatAddress, markdown: string, options: DeliverOptions): Promise<MessageRef[]> {
  const header = options.header;
  const body = markdown.trim() || '_(no text in the answer)_';
  if (body.length > options.documentOverChars) {
    const preview = documentPreview(body, 700);
    const caption: RichText = {
      html: [header?.html, preview, `<i>Full answer (${body.length.toLocaleString('en-US')} characters) attached.</i>`].filter(Boolean).join('\n\n'),
      plain: [header?.plain, `Full answer (${body.length.toLocaleString('en-US')} characters) attached.`].filter(Boolean).join('\n\n'),
    };
    const ref = await out.sendDocument(to, { filename: options.filename ?? 'answer.md', content: body, caption }, { replyTo: options.replyTo, buttons: options.buttons });
    return [ref];
  }
  const room = header ? 4096 - header.html.length - 2 : 4096;
  const chunks = splitForTelegram(body, room);
  const refs: MessageRef[] = [];
  for (const [index, chunk] of chunks.entries()) {
    const first = index === 0;
    const text: RichText = first && header ? { html: `${header.html}\n\n${chunk.html}`, plain: `${header.plain}\n\n${chunk.plain}` } : chunk;
    refs.push(await out.send(to, text, first ? { replyTo: options.replyTo, buttons: options.buttons } : {}));
  }
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
