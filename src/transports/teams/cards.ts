import type { Activity, Attachment as CardAttachment } from 'botbuilder';
import type { Button } from '../../kernel/ports/chat.ts';
import type { RichText } from '../../kernel/rich/model.ts';
import type { RangeOptions } from '../../kernel/rich/range.ts';
import { renderCardMarkdown } from './format/card-markdown.ts';
import { renderTeamsHtml } from './format/html.ts';

/** An Adaptive Card, as Teams renders them (1.4 is what every Teams client shows). */
export const ADAPTIVE_CARD = 'application/vnd.microsoft.card.adaptive';
const CARD_VERSION = '1.4';

/** A press comes back as a message whose `value` carries this key: the button's data. */
export const PRESS_KEY = 'bridge';

/** A button's title, as Teams shows it without cutting. */
const TITLE_CHARS = 60;

/**
 * A message as Teams shows it: its HTML (`textFormat: 'xml'`); with buttons, an Adaptive Card
 * whose text block is the message in the card's Markdown and whose rows of buttons are action
 * sets. A press is a `messageBack`: it comes back as a message activity carrying the button's
 * data in its `value`, and shows nothing in the chat. An update with no buttons clears an
 * earlier card.
 */
export function teamsMessage(text: RichText, buttons: readonly (readonly Button[])[] = []): Partial<Activity> {
  const rows = buttons.filter((row) => row.length);
  if (!rows.length) return { type: 'message', text: renderTeamsHtml(text), textFormat: 'xml', attachments: [] };
  return { type: 'message', text: '', attachments: [adaptiveCard(renderCardMarkdown(text), rows)] };
}

function adaptiveCard(text: string, rows: readonly (readonly Button[])[]): CardAttachment {
  return {
    contentType: ADAPTIVE_CARD,
    content: {
      type: 'AdaptiveCard',
      $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
      version: CARD_VERSION,
      body: [
        // A card reads no HTML: its text block takes its own Markdown, which has no code (format/card-markdown.ts).
        { type: 'TextBlock', text: text.trim() || '…', wrap: true },
        ...rows.map((row) => ({ type: 'ActionSet', actions: row.map(action) })),
      ],
    },
  };
}

function action(button: Button): Record<string, unknown> {
  const title = [...button.text].length > TITLE_CHARS ? `${[...button.text].slice(0, TITLE_CHARS - 1).join('')}…` : button.text;
  if (button.opens) return { type: 'Action.OpenUrl', title, url: button.opens.url };
  return { type: 'Action.Submit', title, data: { msteams: { type: 'messageBack', value: { [PRESS_KEY]: button.data } } } };
}

/** The button data a press carries, when the activity is one. */
export function pressedData(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const data = (value as Record<string, unknown>)[PRESS_KEY];
  return typeof data === 'string' ? data : undefined;
}

/** A range as Teams is sent it: the longer of its HTML and its card text, as either may carry it (with buttons or without). */
export function teamsMarkup(rich: RichText, from: number, to: number, options?: RangeOptions): string {
  const html = renderTeamsHtml(rich, from, to, options);
  const card = renderCardMarkdown(rich, from, to, options);
  return card.length > html.length ? card : html;
}
