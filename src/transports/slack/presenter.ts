import type { Button } from '../../kernel/ports/chat.ts';
import type { RichText } from '../../kernel/rich/model.ts';
import { plainText } from '../../kernel/rich/plain.ts';
import { emojiNames } from '../serving/app-outbound.ts';
import { renderMrkdwn } from './format/mrkdwn.ts';

/** What chat.postMessage and chat.update take for one message. */
export interface SlackMessage {
  /** mrkdwn: the message itself without buttons, the notification's text with them. */
  text: string;
  /** With buttons: the text in a section, each row an actions block. Empty: none (an update clears them). */
  blocks: SlackBlock[];
}

export type SlackBlock = Record<string, unknown>;

/** A button's label holds 75 characters. */
const BUTTON_TEXT_CHARS = 75;

/**
 * A message as Slack shows it: mrkdwn text, and buttons as Block Kit (the text in a section
 * above them). A button's `value` is its data, which comes back with the press; its action_id
 * is its place, unique in the message as Slack requires.
 */
export function slackMessage(text: RichText, buttons: readonly (readonly Button[])[] = []): SlackMessage {
  const mrkdwn = renderMrkdwn(text);
  const rows = buttons.filter((row) => row.length);
  if (!rows.length) return { text: mrkdwn, blocks: [] };
  return {
    text: mrkdwn,
    blocks: [
      // A section's text may not be empty.
      { type: 'section', text: { type: 'mrkdwn', text: mrkdwn.trim() ? mrkdwn : plainText(text).trim() || '…' } },
      ...rows.map((row, i) => ({ type: 'actions', block_id: `row-${i}`, elements: row.map((button, j) => buttonElement(button, `b-${i}-${j}`)) })),
    ],
  };
}

function buttonElement(button: Button, actionId: string): SlackBlock {
  const label = [...button.text].length > BUTTON_TEXT_CHARS ? `${[...button.text].slice(0, BUTTON_TEXT_CHARS - 1).join('')}…` : button.text;
  return {
    type: 'button',
    action_id: actionId,
    text: { type: 'plain_text', text: label, emoji: true },
    // A link opens in the browser; Slack still sends a press, which carries no data.
    ...(button.opens ? { url: button.opens.url } : { value: button.data }),
  };
}

/** The emoji the bridge reacts with, by Slack's names. */
export const EMOJI_NAMES = emojiNames({ '🤔': 'thinking_face' });
