import type { BotCommand } from 'grammy/types';
import { badRequest } from '../api-error.ts';
import { commandListKey } from '../bot-state.ts';
import { isRecord } from '../params.ts';
import type { MethodContext } from './context.ts';

const MAX_COMMANDS = 100;

function readCommand(raw: unknown): BotCommand {
  if (!isRecord(raw)) throw badRequest("can't parse BotCommand: Object expected");
  const { command, description } = raw;
  if (typeof command !== 'string') throw badRequest('can\'t parse BotCommand: Can\'t find field "command"');
  if (typeof description !== 'string') throw badRequest('can\'t parse BotCommand: Can\'t find field "description"');
  if (command === '') throw badRequest('command must be non-empty');
  if (command.length > 32) throw badRequest('command length must not exceed 32');
  if (!/^[a-z0-9_]+$/.test(command)) throw badRequest('BOT_COMMAND_INVALID');
  if (description.trim() === '') throw badRequest('command description must be non-empty');
  if (description.length > 256) throw badRequest('command description length must not exceed 256');
  return { command, description };
}

function listKey(ctx: MethodContext): string {
  const scope = ctx.params.json('scope', "can't parse BotCommandScope JSON object");
  if (scope !== undefined && (!isRecord(scope) || typeof scope.type !== 'string')) {
    throw badRequest("can't parse BotCommandScope JSON object");
  }
  return commandListKey(scope, ctx.params.string('language_code') || undefined);
}

export function setMyCommands(ctx: MethodContext): true {
  const raw = ctx.params.json('commands', "can't parse commands JSON object") ?? [];
  if (!Array.isArray(raw)) throw badRequest('field "commands" must be of type Array');
  if (raw.length > MAX_COMMANDS) throw badRequest('BOT_COMMANDS_TOO_MUCH');
  const commands = raw.map(readCommand);
  const key = listKey(ctx);
  // An empty list deletes the list, as in Telegram.
  if (commands.length === 0) ctx.state.commandLists.delete(key);
  else ctx.state.commandLists.set(key, commands);
  return true;
}

export function getMyCommands(ctx: MethodContext): BotCommand[] {
  return [...(ctx.state.commandLists.get(listKey(ctx)) ?? [])];
}

export function deleteMyCommands(ctx: MethodContext): true {
  ctx.state.commandLists.delete(listKey(ctx));
  return true;
}
