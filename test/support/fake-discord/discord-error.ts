/** An error as Discord's REST API answers it: an HTTP status and its JSON body (`code`, `message`, `errors`). */
export class DiscordError extends Error {
  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
    readonly errors?: unknown,
    readonly headers: Record<string, string> = {},
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }

  body(): Record<string, unknown> {
    return { message: this.message, code: this.code, ...(this.errors !== undefined ? { errors: this.errors } : {}), ...this.extra };
  }
}

export const unauthorized = () => new DiscordError(401, 0, '401: Unauthorized');
export const unknownChannel = () => new DiscordError(404, 10003, 'Unknown Channel');
export const unknownMessage = () => new DiscordError(404, 10008, 'Unknown Message');
export const unknownMember = () => new DiscordError(404, 10007, 'Unknown Member');
export const unknownGuild = () => new DiscordError(404, 10004, 'Unknown Guild');
export const unknownInteraction = () => new DiscordError(404, 10062, 'Unknown interaction');
export const unknownWebhook = () => new DiscordError(404, 10015, 'Unknown Webhook');
export const alreadyAcknowledged = () => new DiscordError(400, 40060, 'Interaction has already been acknowledged.');
export const missingAccess = () => new DiscordError(403, 50001, 'Missing Access');
export const emptyMessage = () => new DiscordError(400, 50006, 'Cannot send an empty message');
export const cannotEditOthers = () => new DiscordError(403, 50005, 'Cannot edit a message authored by another user');
export const notFound = () => new DiscordError(404, 0, '404: Not Found');

/** One field's complaint, as 50035's `errors` tree carries it. */
export interface FieldError {
  path: (string | number)[];
  code: string;
  message: string;
}

/** 50035 "Invalid Form Body", its `errors` a tree down to each field's `_errors`. */
export function invalidFormBody(problems: FieldError[]): DiscordError {
  const errors: Record<string, unknown> = {};
  for (const { path, code, message } of problems) {
    let node = errors;
    for (const key of path) node = (node[String(key)] ??= {}) as Record<string, unknown>;
    ((node._errors ??= []) as unknown[]).push({ code, message });
  }
  return new DiscordError(400, 50035, 'Invalid Form Body', errors);
}
