import type { Log } from '../../kernel/log/logger.ts';
import type { ChatRef, Outbound } from '../../kernel/ports/chat.ts';
import { plain } from '../../kernel/rich/index.ts';
import { MESSAGE_CONTENT_HOW } from './invite.ts';

/**
 * Said once, in the log and in the chat, when a server message meant for the bot arrives
 * without its text: Discord sends it so while the privileged Message Content intent is off.
 */
export class MessageContentNotice {
  private said = false;

  constructor(private readonly botName: string) {}

  async say(address: ChatRef, messageId: string, out: Outbound, log: Log): Promise<void> {
    if (this.said) return;
    this.said = true;
    log.warn(`a server message reached the bot without its text: the Message Content intent is off (${MESSAGE_CONTENT_HOW})`);
    await out.send(
      address,
      plain(
        `Discord sent me this message without its text: the bot's Message Content intent is off. Its owner can turn it on (${MESSAGE_CONTENT_HOW}). Until then, mention me (@${this.botName}) in a message and I read it.`,
      ),
      { replyTo: messageId },
    );
  }
}
