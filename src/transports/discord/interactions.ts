/** An interaction's token answers its follow-ups this long. */
const TOKEN_LIFE_MS = 15 * 60 * 1000;

interface Pending {
  token: string;
  expiresAt: number;
  /** Its reply (deferred: "thinking…") is still waiting for the answer's first message. */
  unanswered: boolean;
}

/**
 * Application commands waiting for their answer: each was deferred within Discord's 3 s, and
 * the first message the bridge sends in reply to it (its `replyTo` is the interaction's id)
 * takes the place of the "thinking…" reply, through the interaction's webhook. Messages sent
 * that way stay editable through it while its token lasts.
 */
export class PendingInteractions {
  private readonly byId = new Map<string, Pending>();
  /** Messages that are interaction replies: edited through the webhook while the token lasts. */
  private readonly replies = new Map<string, string>();

  deferred(interactionId: string, token: string): void {
    this.sweep();
    this.byId.set(interactionId, { token, expiresAt: Date.now() + TOKEN_LIFE_MS, unanswered: true });
  }

  /** Whether `replyTo` names an interaction (never a message to reference). */
  isInteraction(replyTo: string | undefined): boolean {
    return replyTo !== undefined && this.byId.has(replyTo);
  }

  /** The token to answer with, once: the first message in reply to the interaction. */
  claim(interactionId: string): string | undefined {
    const pending = this.byId.get(interactionId);
    if (!pending || !pending.unanswered || pending.expiresAt <= Date.now()) return undefined;
    pending.unanswered = false;
    return pending.token;
  }

  answered(interactionId: string, messageId: string): void {
    if (this.byId.has(interactionId)) this.replies.set(messageId, interactionId);
  }

  /** The token a message is edited through, while it lasts. */
  tokenOfReply(messageId: string): string | undefined {
    const interaction = this.replies.get(messageId);
    const pending = interaction ? this.byId.get(interaction) : undefined;
    return pending && pending.expiresAt > Date.now() ? pending.token : undefined;
  }

  private sweep(): void {
    const now = Date.now();
    for (const [id, pending] of this.byId) if (pending.expiresAt <= now) this.byId.delete(id);
    for (const [message, interaction] of this.replies) if (!this.byId.has(interaction)) this.replies.delete(message);
  }
}
