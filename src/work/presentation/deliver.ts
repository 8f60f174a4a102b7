import { parseMarkdown } from './format/index.ts';
import { italic, join, type RichText } from '../../kernel/rich/index.ts';
import type { ChatRef, MessageFit, MessageRef, Outbound, SendOptions } from '../../kernel/ports/chat.ts';

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
 * How an agent's Markdown answer goes out: parsed and split (by the transport) into
 * message-sized chunks at block or line boundaries, or (when very long) one document with a
 * preview. Nothing is cut silently. Buttons and the reply go on the first message.
 */
export function planMarkdown(markdown: string, fit: MessageFit, options: DeliverOptions): Part[] {
  const { header, footer } = options;
  const first: SendOptions = { replyTo: options.replyTo, buttons: options.buttons };
  // Control characters (a NUL the agent echoed, say) show nothing, and a message of nothing else is refused.
  const body = markdown.replace(INVISIBLE_CONTROLS, '').trim() || '_(no text in the answer)_';
  const answer = parseMarkdown(body);
  if (body.length > options.documentOverChars) {
    const size = `Full answer (${body.length.toLocaleString('en-US')} characters) attached.`;
    const shown = [header, fit.preview(answer), italic(size)].filter((part): part is RichText => part !== undefined && part.text !== '');
    return [{ kind: 'document', filename: options.filename ?? 'answer.md', content: body, caption: join(shown, '\n\n'), options: first }];
  }
  return fit.split(answer, { header, footer }).map((text, index) => ({ kind: 'text', text, options: index === 0 ? first : {} }));
}

export function sendPart(out: Outbound, to: ChatRef, part: Part): Promise<MessageRef> {
  return part.kind === 'text'
    ? out.send(to, part.text, part.options)
    : out.sendDocument(to, { filename: part.filename, content: part.content, caption: part.caption }, part.options);
}

export async function deliverMarkdown(out: Outbound, to: ChatRef, markdown: string, options: DeliverOptions): Promise<MessageRef[]> {
  const refs: MessageRef[] = [];
  for (const part of planMarkdown(markdown, out.fit(to), options)) refs.push(await sendPart(out, to, part));
  return refs;
}
