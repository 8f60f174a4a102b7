import { bold, lines, rich, type RichText } from '../../rich/index.ts';
import type { BridgeManifest } from '../../config/bridge-manifest.ts';
import type { CommandHandler } from './command.ts';

export function helpText(manifest: BridgeManifest, intro?: string): RichText {
  const head = intro ?? 'Send any text and the agent works on it in this chat; the session continues across messages.';
  return lines([head, '', bold('Commands'), ...manifest.commands.map((c) => rich`${c.usage}\n    ${c.description}`)]);
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
