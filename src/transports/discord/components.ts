import type { Button } from '../../kernel/ports/chat.ts';
import { DISCORD_BUTTON_ROWS, DISCORD_CAPABILITIES, DISCORD_LABEL_CHARS } from './capabilities.ts';

const ACTION_ROW = 1;
const BUTTON = 2;
const SECONDARY = 2;
const LINK = 5;

interface ButtonComponent {
  type: typeof BUTTON;
  style: number;
  label: string;
  custom_id?: string;
  url?: string;
}

export interface ActionRow {
  type: typeof ACTION_ROW;
  components: ButtonComponent[];
}

function label(text: string): string {
  const chars = [...text];
  return chars.length <= DISCORD_LABEL_CHARS ? text : `${chars.slice(0, DISCORD_LABEL_CHARS - 1).join('')}…`;
}

/**
 * Buttons as Discord's components: a row of more than five goes on in the next row (past five
 * rows, the buttons are packed five a row, the first 25 kept); a press
 * comes back with the button's data as its custom_id. A button that opens an address is a
 * link button (Discord has no in-app page to open).
 */
export function actionRows(buttons: readonly (readonly Button[])[]): ActionRow[] {
  const rows: ActionRow[] = [];
  for (const row of buttons) {
    for (let at = 0; at < row.length; at += DISCORD_CAPABILITIES.buttonsPerRow) {
      const components = row
        .slice(at, at + DISCORD_CAPABILITIES.buttonsPerRow)
        .map((button): ButtonComponent =>
          button.opens
            ? { type: BUTTON, style: LINK, label: label(button.text), url: button.opens.url }
            : { type: BUTTON, style: SECONDARY, label: label(button.text), custom_id: button.data },
        );
      if (components.length) rows.push({ type: ACTION_ROW, components });
    }
  }
  if (rows.length <= DISCORD_BUTTON_ROWS) return rows;
  // Too many rows: the buttons packed five a row, as many as a message holds.
  const all = rows.flatMap((row) => row.components).slice(0, DISCORD_BUTTON_ROWS * DISCORD_CAPABILITIES.buttonsPerRow);
  const packed: ActionRow[] = [];
  for (let at = 0; at < all.length; at += DISCORD_CAPABILITIES.buttonsPerRow)
    packed.push({ type: ACTION_ROW, components: all.slice(at, at + DISCORD_CAPABILITIES.buttonsPerRow) });
  return packed;
}
