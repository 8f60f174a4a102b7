import { emptyMessage, invalidFormBody, type DiscordError, type FieldError } from './discord-error.ts';

/** What a message body may carry: Discord's own limits, checked as its API checks them. */
export const LIMITS = {
  content: 2000,
  embeds: 10,
  embedTitle: 256,
  embedDescription: 4096,
  actionRows: 5,
  buttonsPerRow: 5,
  customId: 100,
  label: 80,
  files: 10,
} as const;

export interface MessageBody {
  content?: unknown;
  embeds?: unknown;
  components?: unknown;
  attachments?: unknown;
  flags?: unknown;
}

const tooLong = (path: FieldError['path'], max: number): FieldError => ({
  path,
  code: 'BASE_TYPE_MAX_LENGTH',
  message: `Must be ${max} or fewer in length.`,
});

/** The 50035 (or 50006) a body earns, or undefined when Discord takes it. `files` counts the uploads with it. */
export function checkMessage(body: MessageBody, files: number, { creating }: { creating: boolean }): DiscordError | undefined {
  const problems: FieldError[] = [];
  const content = typeof body.content === 'string' ? body.content : undefined;
  if (content !== undefined && [...content].length > LIMITS.content) problems.push(tooLong(['content'], LIMITS.content));
  const embeds = Array.isArray(body.embeds) ? (body.embeds as Record<string, unknown>[]) : [];
  if (embeds.length > LIMITS.embeds) problems.push(tooLong(['embeds'], LIMITS.embeds));
  embeds.forEach((embed, i) => {
    if (typeof embed.title === 'string' && embed.title.length > LIMITS.embedTitle) problems.push(tooLong(['embeds', i, 'title'], LIMITS.embedTitle));
    if (typeof embed.description === 'string' && embed.description.length > LIMITS.embedDescription)
      problems.push(tooLong(['embeds', i, 'description'], LIMITS.embedDescription));
  });
  const rows = Array.isArray(body.components) ? (body.components as { type?: number; components?: unknown }[]) : [];
  if (rows.length > LIMITS.actionRows) problems.push(tooLong(['components'], LIMITS.actionRows));
  rows.forEach((row, r) => {
    if (row.type !== 1) problems.push({ path: ['components', r, 'type'], code: 'UNION_TYPE_CHOICES', message: 'Value of field "type" must be one of (1,).' });
    const buttons = Array.isArray(row.components) ? (row.components as Record<string, unknown>[]) : [];
    if (buttons.length === 0 || buttons.length > LIMITS.buttonsPerRow)
      problems.push({
        path: ['components', r, 'components'],
        code: 'BASE_TYPE_BAD_LENGTH',
        message: `Must be between 1 and ${LIMITS.buttonsPerRow} in length.`,
      });
    buttons.forEach((button, b) => {
      const at = ['components', r, 'components', b];
      if (typeof button.label === 'string' && button.label.length > LIMITS.label) problems.push(tooLong([...at, 'label'], LIMITS.label));
      if (button.style === 5) {
        if (typeof button.url !== 'string') problems.push({ path: [...at, 'url'], code: 'BASE_TYPE_REQUIRED', message: 'This field is required' });
      } else if (typeof button.custom_id !== 'string' || button.custom_id === '')
        problems.push({ path: [...at, 'custom_id'], code: 'BASE_TYPE_REQUIRED', message: 'This field is required' });
      else if (button.custom_id.length > LIMITS.customId) problems.push(tooLong([...at, 'custom_id'], LIMITS.customId));
    });
  });
  if (files > LIMITS.files) problems.push(tooLong(['files'], LIMITS.files));
  if (problems.length) return invalidFormBody(problems);
  const empty = !content && !embeds.length && !rows.length && files === 0;
  if (creating && empty) return emptyMessage();
  return undefined;
}
