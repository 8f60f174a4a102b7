import { z } from 'zod';
import { isToolRule } from '../../kernel/policy/tool-rules.ts';

/** Field rules shared by agent.json and Claude Code front matter. */

const text = z.string().trim().min(1, 'must not be empty');

export const requiredText = z
  .string({ error: (issue) => (issue.input === undefined ? 'required' : undefined) })
  .trim()
  .min(1, 'must not be empty');

export const optionalText = text.optional();

/** Tools and Claude Code permission rules (`Bash(git log:*)`), checked as the CLI would. */
export const toolList = z.array(
  text.refine((tool) => !tool || isToolRule(tool), { error: 'not a tool or a permission rule (Tool, Tool(specifier), mcp__server__tool)' }),
);

const positiveInteger = 'must be a positive integer';
export const maxTurns = z.int({ error: positiveInteger }).positive({ error: positiveInteger });

const dollarsAbove0 = 'must be an amount of US dollars above 0, like 0.50';
/** A run's or a turn's most cost in US dollars: `0.5`, or as people write it, `"$0.50"`. */
export const budgetUsd = z.preprocess(
  (value) => (typeof value === 'string' && /^\s*\$?\d+(\.\d+)?\s*$/.test(value) ? Number(value.replace(/[\s$]/g, '')) : value),
  z.number({ error: dollarsAbove0 }).positive({ error: dollarsAbove0 }).max(10_000, { error: 'must be at most 10000 US dollars' }),
);

/** Names of MCP servers the operator configured: anything else would reach the CLI as nothing, or fail there. */
export function mcpServerNames(known: readonly string[]) {
  const configured = known.length ? `configured: ${known.join(', ')}` : 'none are configured';
  return z.array(
    z.string().refine((name) => known.includes(name), {
      error: (issue) => `unknown MCP server "${String(issue.input)}" (${configured}; the operator's servers are in <BRIDGE_DATA_DIR>/mcp-servers.json)`,
    }),
  );
}

/** Skill names as the CLI knows them (Claude Code: the folder names under .claude/skills). */
export const skillList = z.array(text.regex(/^[\w.:-]+$/, 'a skill name: letters, digits, ".", ":", "_" or "-"'));

/** An emoji or two: it stands before the name in a list, not instead of it. */
export const icon = z.string().trim().min(1, 'must not be empty').max(16, 'an emoji or two, at most 16 characters');

export function cliName(knownClis: readonly string[]) {
  const known = knownClis.length ? knownClis.join(', ') : 'none';
  return z.string().refine((cli) => knownClis.includes(cli), {
    error: (issue) => `unknown CLI "${String(issue.input)}" (known: ${known})`,
  });
}

/** Tools listed as both allowed and disallowed: the intent is unclear, so the agent is refused. */
export function toolsInBoth(allowed: readonly string[] = [], disallowed: readonly string[] = []): string[] {
  const allowedSet = new Set(allowed);
  return [...new Set(disallowed.filter((tool) => allowedSet.has(tool)))];
}
