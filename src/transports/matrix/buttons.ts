import type { Button, ChatRef } from '../../kernel/ports/chat.ts';
import type { KeptJson } from '../../kernel/store/kept-json.ts';
import { escapeHtml } from './format/html.ts';

/** The reaction keys of a message's buttons, in order: Matrix bots' buttons are reactions. */
export const KEYS = ['1️⃣', '2️⃣', '3️⃣', '4️⃣', '5️⃣', '6️⃣', '7️⃣', '8️⃣', '9️⃣', '🔟'] as const;

/** Messages whose buttons are remembered: the newest this many. */
const REMEMBERED = 2000;

/** How long a change waits to be kept on disk, with those that come meanwhile: a progress message is edited often. */
const KEEP_EVERY_MS = 500;

/** A message's buttons as the bridge keeps them: each key's data, and the chat it was sent to. */
export interface KeptButtons {
  chat: ChatRef;
  data: string[];
}

/** The buttons' line under a message's text: each button's key and label, a row a line; links as links. */
export function buttonLines(rows: readonly (readonly Button[])[] | undefined): { plain: string; html: string; data: string[] } {
  const data: string[] = [];
  const lines = (rows ?? [])
    .map((row) =>
      row.flatMap((button) => {
        if (button.opens)
          return [{ plain: `${button.text}: ${button.opens.url}`, html: `<a href="${escapeHtml(button.opens.url)}">${escapeHtml(button.text)}</a>` }];
        const key = KEYS[data.length];
        if (!key) return [];
        data.push(button.data);
        return [{ plain: `${key} ${button.text}`, html: `${key} ${escapeHtml(button.text)}` }];
      }),
    )
    .filter((line) => line.length);
  const joined = (as: 'plain' | 'html', between: string) => lines.map((line) => line.map((button) => button[as]).join(' · ')).join(between);
  return { plain: joined('plain', '\n'), html: joined('html', '<br>'), data };
}

/**
 * The buttons of the bridge's messages, by event id: a reaction with a message's key (or a
 * reply of its number) is a press of that button. The reactions the bot put on a message
 * (the keys people tap) are remembered too, to take them off when its buttons go.
 */
export class ButtonMemory {
  private readonly byEvent = new Map<string, KeptButtons & { reactions: Map<string, string> }>();
  /** Each chat's latest message with buttons: what a bare number written there presses. */
  private readonly latest = new Map<string, string>();
  private keeping: NodeJS.Timeout | undefined;

  /**
   * `file`: where the messages that have buttons now are kept (`matrix-buttons.json`), so that a
   * press on one sent before a restart reaches the bridge, which answers it, as a press in any
   * chat app does, rather than nothing happening.
   */
  constructor(private readonly file?: KeptJson) {}

  /** What was kept before this start. */
  async load(): Promise<void> {
    const kept = (await this.file?.read()) as Kept | undefined;
    for (const [eventId, entry] of Object.entries(kept?.messages ?? {})) {
      if (!entry || typeof entry.chat?.chat !== 'string' || !Array.isArray(entry.data)) continue;
      this.byEvent.set(eventId, { chat: entry.chat, data: entry.data.map(String), reactions: new Map(Object.entries(entry.reactions ?? {})) });
    }
    for (const [chat, eventId] of Object.entries(kept?.latest ?? {})) if (this.byEvent.has(eventId)) this.latest.set(chat, eventId);
  }

  /** Keeps on disk what is not kept yet (the bridge stops). */
  async flush(): Promise<void> {
    clearTimeout(this.keeping);
    this.keeping = undefined;
    await this.file?.write(() => this.snapshot());
  }

  /**
   * A message's buttons as they are now. Only a message sent with its buttons (a question) is
   * what a number answers: a progress message's Stop, added by an edit, is pressed by its
   * reaction alone, so that a "1" written mid-turn stays a message.
   */
  keep(eventId: string, chatKey: string, kept: KeptButtons, asked: boolean): Map<string, string> {
    const reactions = this.byEvent.get(eventId)?.reactions ?? new Map<string, string>();
    this.byEvent.delete(eventId);
    this.byEvent.set(eventId, { ...kept, reactions });
    if (kept.data.length && asked) this.latest.set(chatKey, eventId);
    else if (!kept.data.length && this.latest.get(chatKey) === eventId) this.latest.delete(chatKey);
    if (this.byEvent.size > REMEMBERED) this.byEvent.delete(this.byEvent.keys().next().value!);
    if (this.latest.size > REMEMBERED) this.latest.delete(this.latest.keys().next().value!);
    this.changed();
    return reactions;
  }

  /** The data of the button a key names on an event; undefined: no such button. */
  press(eventId: string, key: string): { chat: ChatRef; data: string } | undefined {
    const kept = this.byEvent.get(eventId);
    const index = KEYS.indexOf(key.replace(/\uFE0F?\u20E3$/, '\uFE0F\u20E3') as (typeof KEYS)[number]);
    const data = index >= 0 ? kept?.data[index] : undefined;
    return kept && data !== undefined ? { chat: kept.chat, data } : undefined;
  }

  /** The message a number written in a chat presses a button of: the chat's latest with buttons. */
  latestIn(chatKey: string): string | undefined {
    return this.latest.get(chatKey);
  }

  private changed(): void {
    if (!this.file || this.keeping) return;
    this.keeping = setTimeout(() => void this.flush().catch(() => {}), KEEP_EVERY_MS);
    this.keeping.unref();
  }

  /** The messages that have buttons now (a message without any has nothing to press), and each chat's latest. */
  private snapshot(): Kept {
    const messages = Object.fromEntries(
      [...this.byEvent].filter(([, kept]) => kept.data.length).map(([eventId, kept]) => [eventId, { ...kept, reactions: Object.fromEntries(kept.reactions) }]),
    );
    return { messages, latest: Object.fromEntries([...this.latest].filter(([, eventId]) => eventId in messages)) };
  }
}

/** The file's shape. */
interface Kept {
  messages?: Record<string, KeptButtons & { reactions?: Record<string, string> }>;
  latest?: Record<string, string>;
}
