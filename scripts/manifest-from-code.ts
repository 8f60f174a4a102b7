import { toJsonSchemaCompat } from '@modelcontextprotocol/sdk/server/zod-json-schema-compat.js';
import { format } from 'prettier';
import { COMMANDS } from '../src/chat/commands/index.ts';
import { TOOLS } from '../src/work/tools/index.ts';
import { stringify } from 'yaml';
import { slackAppManifest } from '../src/transports/slack/app-manifest.ts';

/** What manifest.json says of each command: generated from its module. */
export function commandManifest(): { name: string; description: string; usage: string }[] {
  return COMMANDS.map(({ name, description, usage }) => ({ name, description, usage }));
}

/** What manifest.json says of each MCP tool: its JSON Schema as the MCP SDK derives it from the zod schema, what agents are sent. */
export function toolManifest(): { name: string; description: string; inputSchema: unknown }[] {
  return TOOLS.map(({ name, description, input }) => ({
    name,
    description,
    inputSchema: toJsonSchemaCompat(input, { strictUnions: true, pipeStrategy: 'input' }),
  }));
}

/**
 * manifest.json as the code makes it: the parts generated from the modules replaced, and
 * everything else (the settings operators edit) kept as it is, in its place.
 */
export async function manifestFromCode(current: Record<string, unknown>): Promise<string> {
  const next = { ...current, commands: commandManifest(), tools: toolManifest() };
  return format(JSON.stringify(next), { parser: 'json', printWidth: 160 });
}

/** slack-app-manifest.yml: the Slack app the bridge needs, with its one slash command for every command. */
export async function slackManifestFromCode(): Promise<string> {
  const header = [
    '# The Slack app jsonl-bridge needs: api.slack.com/apps → Create New App → From a manifest → paste this.',
    '# Written by `npm run manifest` from src/transports/slack/app-manifest.ts.',
  ].join('\n');
  return format(`${header}\n${stringify(slackAppManifest(COMMANDS))}`, { parser: 'yaml', singleQuote: true, printWidth: 160 });
}
