import { z } from 'zod';
import { isToolRule } from '../policy/tool-rules.ts';

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
