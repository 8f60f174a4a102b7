import type { Update } from 'grammy/types';
import { badRequest } from '../api-error.ts';
import type { MethodContext } from './context.ts';

const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));

function readAllowedUpdates(ctx: MethodContext): string[] | undefined {
  const raw = ctx.params.json('allowed_updates', "can't parse allowed_updates JSON object");
  if (raw === undefined) return undefined;
  if (!Array.isArray(raw) || !raw.every((t): t is string => typeof t === 'string')) {
    throw badRequest('field "allowed_updates" must be an Array of Strings');
  }
  return raw;
}

export function getUpdates(ctx: MethodContext): Promise<Update[]> {
  const { params } = ctx;
  return ctx.updates.poll({
    offset: params.integer('offset'),
    // Telegram clamps rather than rejects out-of-range values.
    limit: clamp(params.integer('limit') ?? 100, 1, 100),
    timeoutSeconds: clamp(params.integer('timeout') ?? 0, 0, 50),
    allowedUpdates: readAllowedUpdates(ctx),
    signal: ctx.signal,
  });
}
