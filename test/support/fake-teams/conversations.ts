import { readCardMarkdown } from './reading.ts';

/** A message the bot sent (and maybe updated), as the twin keeps it. */
export interface BotMessage {
  id: string;
  /** The conversation it went to: a reply chain's id names its channel and root. */
  conversation: string;
  text: string;
  /** How Teams reads `text`: `xml` (its HTML), `plain`, or Markdown when none is said. */
  textFormat?: string;
  attachments: BotAttachment[];
  edits: number;
}

export interface BotAttachment {
  contentType: string;
  name?: string;
  contentUrl?: string;
  content?: unknown;
}

/** One of the bot's conversations' recent calls, for Teams' per-conversation limits. */
export class ConversationLimits {
  private readonly calls = new Map<string, number[]>();

  /** Seconds to wait when this call would pass 7 a second or 60 in 30 s in its conversation; undefined: it may go. */
  take(conversation: string, now = Date.now()): number | undefined {
    const recent = (this.calls.get(conversation) ?? []).filter((at) => now - at < 30_000);
    const lastSecond = recent.filter((at) => now - at < 1000).length;
    if (lastSecond >= 7 || recent.length >= 60) return 1;
    recent.push(now);
    this.calls.set(conversation, recent);
    return undefined;
  }
}

/** A card's text (its text blocks' Markdown, read) and its buttons, as a reader sees them. */
export function shownCard(attachment: BotAttachment): { text: string; actions: { title: string; data?: unknown }[] } {
  const body = ((attachment.content as { body?: unknown[] } | undefined)?.body ?? []) as {
    type: string;
    text?: string;
    actions?: { title: string; data?: unknown }[];
  }[];
  return {
    text: body
      .filter((e) => e.type === 'TextBlock')
      .map((e) => readCardMarkdown(e.text ?? ''))
      .join('\n'),
    actions: body.filter((e) => e.type === 'ActionSet').flatMap((e) => e.actions ?? []),
  };
}
