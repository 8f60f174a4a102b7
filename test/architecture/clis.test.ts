import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));

/** A CLI, its vendor or its dialect, by name or by its variables. */
const CLI_NAMES = /claude|codex|droid|factory|anthropic|openai|CLAUDE_|CODEX_|FACTORY_|ANTHROPIC_|OPENAI_/;

/**
 * Where code may name a CLI besides its manifest (adapters/*.json) and its decoder
 * (kernel/protocols/<dialect>.ts), each for its reason. Comments may name any, as examples. Adding a
 * JSONL CLI is its manifest, its decoder and one line of kernel/protocols/index.ts.
 */
const MAY_NAME: Record<string, string> = {
  'kernel/protocols/index.ts': 'the one list of dialects',
  'engine/adapters/saved-sessions.ts': 'one record per saved-session format',
  'engine/adapters/manifest.ts': "the name of Claude Code's MCP configuration format, and an example in a message",
  'work/tools/mcp-config.ts': 'writes that format (mcpConfigFormat: claude-json)',
  'work/subagents/spawner.ts': 'asks for that format',
  'work/subagents/subagents.ts': "reads the log of a run whose CLI's adapter is gone in the default CLI's dialect",
  'engine/engine-settings.ts': "BRIDGE_DEFAULT_CLI's default, which the contract names",
  'services/telemetry/trace-attributes.ts': "the one guess of a model's provider by its name (droid runs any vendor's)",
  'engine/sandbox/model-usage.ts': "the model APIs' answers (Anthropic's, OpenAI's), which the credential proxy meters",
  'engine/sandbox/model-api-access.ts': 'the well-known model keys no sandbox holds, whichever CLI it runs',
  'engine/agents/load.ts': "Claude Code's agent files (.claude/agents) as a source of agents for every CLI",
  'engine/agents/claude-source.ts': 'the same',
  'engine/agents/types.ts': 'the same',
  'work/presentation/agents.ts': 'the same',
  'chat/commands/trust.ts': 'an example in help',
  'chat/commands/fallback.ts': 'an example in help',
  'engine/fallback/chain.ts': 'an example in an error',
  'transports/slack/app-manifest.ts': "the Slack app's description",
  'transports/teams/app-manifest.ts': "the Teams app's description",
};

async function sources(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((entry) => entry.isFile() && entry.name.endsWith('.ts')).map((entry) => join(entry.parentPath, entry.name));
}

describe('the CLIs', () => {
  it('are each described in one place: no other code names one', async () => {
    const naming: string[] = [];
    const allowed = new Set<string>();
    for (const file of await sources(SRC)) {
      const path = relative(SRC, file);
      if (/^kernel\/protocols\/(claude|codex|droid)[\w-]*\.ts$/.test(path) || path.startsWith('surfaces/api/generated/')) continue;
      (await readFile(file, 'utf8')).split('\n').forEach((line, i) => {
        if (!CLI_NAMES.test(line) || /^\s*(\*|\/\/|\/\*)/.test(line)) return;
        if (Object.hasOwn(MAY_NAME, path)) allowed.add(path);
        else naming.push(`src/${path}:${i + 1}: ${line.trim()}`);
      });
    }
    expect(naming).toEqual([]);
    // The list shrinks with the code: a place that names none is no longer on it.
    expect([...allowed].sort()).toEqual(Object.keys(MAY_NAME).sort());
  });
});
