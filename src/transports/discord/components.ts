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
  const perRow = DISCORD_CAPABILITIES.buttonsPerRow;
  const rows = buttons.flatMap((row) => inRows(row.map(component), perRow));
  // Too many rows: the buttons packed five a row, as many as a message holds.
  const fitting = rows.length <= DISCORD_BUTTON_ROWS ? rows : inRows(rows.flat().slice(0, DISCORD_BUTTON_ROWS * perRow), perRow);
  return fitting.map((components) => ({ type: ACTION_ROW, components }));
}

function component(button: Button): ButtonComponent {
  return button.opens
    ? { type: BUTTON, style: LINK, label: label(button.text), url: button.opens.url }
    : { type: BUTTON, style: SECONDARY, label: label(button.text), custom_id: button.data };
}

/** `items`, `size` a row. */
function inRows<T>(items: readonly T[], size: number): T[][] {
  return Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size));
}
