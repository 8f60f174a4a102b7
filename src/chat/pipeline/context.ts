import type { MessageRef, RichText, SendOptions } from '../../kernel/ports/chat.ts';
import type { Prompt } from '../session/attachments.ts';
import type { ChatSession } from '../session/chat-session.ts';
import type { CommandLine } from '../dispatch/command-line.ts';

/** What every step of a message's handling is given. */
export interface MessageContext {
  /** The message (a prompt: with the files already saved for it, when an album gathered them). */
  readonly message: Prompt;
  /** The command it is (`/name rest`), or null: words for the agent. */
  readonly command: CommandLine | null;
  /** The chat's session, read when a step first asks: a stranger's message makes none. */
  readonly chat: ChatSession;
  /** A reply to the message, in its chat. */
  readonly reply: (text: RichText, options?: SendOptions) => Promise<MessageRef>;
}
