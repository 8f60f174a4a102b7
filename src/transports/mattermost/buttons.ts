import { createHmac } from 'node:crypto';
import { sameSecret } from '../../kernel/http/same-secret.ts';
import type { Button, ChatRef } from '../../kernel/ports/chat.ts';

/** What the server keeps of a button and sends back with its press: the bridge's data, where it was, and their signature. */
export interface ButtonContext {
  /** The button's data, as the core made it. */
  d: string;
  /** The channel and thread root the button was sent to. */
  c: string;
  r?: string;
  /** HMAC-SHA256 of the above, under the key only the bridge holds. */
  s: string;
}

/**
 * The bridge's buttons as Mattermost's interactive message buttons: each row an attachment of
 * actions, each action's integration the bridge's own URL with a signed context. The server
 * keeps the integration from the people who see the post and sends it with the press; the
 * signature proves a press carries a context this bridge made, for the chat it names.
 */
export class SignedButtons {
  private readonly key: Buffer;

  /** The key comes from the bot's token: stable across restarts (older posts' buttons still work), and unknown to anyone without it. */
  constructor(
    token: string,
    private readonly actionsUrl: string | undefined,
  ) {
    this.key = createHmac('sha256', token).update('jsonl-bridge mattermost buttons').digest();
  }

  /** Whether presses can reach the bridge: without its web server there are none to offer. */
  get pressable(): boolean {
    return this.actionsUrl !== undefined;
  }

  /** The post's `props.attachments` for these rows; none when there are none (or no web server to take their presses). */
  attachments(to: ChatRef, rows: readonly (readonly Button[])[] | undefined): Record<string, unknown>[] {
    if (!this.actionsUrl) return [];
    return (rows ?? [])
      .filter((row) => row.length)
      .map((row, i) => {
        // A link is no press: it shows as a link above the row's buttons.
        const links = row.filter((button) => button.opens).map((button) => `[${button.text}](${button.opens!.url})`);
        const actions = row
          .filter((button) => !button.opens)
          .map((button, j) => ({
            id: `b${i}x${j}`,
            type: 'button',
            name: button.text,
            integration: { url: this.actionsUrl, context: this.sign(to, button.data) },
          }));
        return { ...(links.length ? { text: links.join(' · ') } : {}), ...(actions.length ? { actions } : {}) };
      });
  }

  sign(to: ChatRef, data: string): ButtonContext {
    const root = to.thread;
    return { d: data, c: to.chat, ...(root ? { r: root } : {}), s: this.signature(to.chat, root, data) };
  }

  /** The context back from a press, when it is one this bridge signed for `channel`; undefined: forged, or made for elsewhere. */
  verify(context: unknown, channel: string): ButtonContext | undefined {
    const c = context as Partial<ButtonContext> | undefined;
    if (typeof c?.d !== 'string' || typeof c.c !== 'string' || typeof c.s !== 'string' || (c.r !== undefined && typeof c.r !== 'string')) return undefined;
    if (c.c !== channel) return undefined;
    return sameSecret(c.s, this.signature(c.c, c.r, c.d)) ? (c as ButtonContext) : undefined;
  }

  private signature(channel: string, root: string | undefined, data: string): string {
    return createHmac('sha256', this.key)
      .update(`${channel}\n${root ?? ''}\n${data}`)
      .digest('hex');
  }
}
