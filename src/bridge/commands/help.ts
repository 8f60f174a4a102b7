import { escapeHtml } from '../../presentation/format/index.ts';
import type { RichText } from '../../ports/transport.ts';
import type { BridgeManifest } from '../../config/bridge-manifest.ts';
import type { CommandHandler } from './command.ts';

export function helpText(manifest: BridgeManifest, intro?: string): RichText {
  const lines = manifest.commands.map((c) => ({ html: `${escapeHtml(c.usage)}\n    ${escapeHtml(c.description)}`, plain: `${c.usage}\n    ${c.description}` }));
  const head = intro ?? 'Send any text and the agent works on it in this chat; the session continues across messages.';
  return {
    html: `${escapeHtml(head)}\n\n<b>Commands</b>\n${lines.map((l) => l.html).join('\n')}`,
    plain: `${head}\n\nCommands\n${lines.map((l) => l.plain).join('\n')}`,
  };
}

export const start: CommandHandler = async ({ bridge, reply }) => {
  const cli = [...bridge.config.adapters.keys()].join(', ');
  await reply(
    helpText(
      bridge.config.manifest,
      `👋 This bot runs coding agents (${cli}) for you. Send a message and the agent works on it; progress shows live and the answer arrives here.`,
    ),
  );
};

export const help: CommandHandler = async ({ bridge, reply }) => {
  await reply(helpText(bridge.config.manifest));
};
