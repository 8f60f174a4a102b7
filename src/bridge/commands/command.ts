import type { RichText, MessageRef, SendOptions, IncomingMessage } from '../../chat/transport.ts';
import type { ChatSession } from '../chat-session.ts';
import type { Bridge } from '../bridge.ts';

export interface CommandContext {
  bridge: Bridge;
  chat: ChatSession;
  message: IncomingMessage;
  /** What follows the command word. */
  args: string;
  reply(text: RichText, options?: SendOptions): Promise<MessageRef>;
  /** The command's usage line from manifest.json. */
  usage: string;
}

export type CommandHandler = (ctx: CommandContext) => Promise<void>;

/** A wrong use of a command: answered with this message and the command's usage. */
export class UsageError extends Error {
  override name = 'UsageError';
}
