import { readOperatorFile } from '../errors/operator-file.ts';
import { join } from 'node:path';
import { z } from 'zod';
import { ConfigError, describeIssues } from '../errors/config-error.ts';
import { UNASKED_TOOLS, type ApprovalRule } from './approval-rules.ts';
import { isToolRule, ruleTool } from './tool-rules.ts';

/** The operator's tool policy: `BRIDGE_DATA_DIR/tool-policy.json`. */
export const TOOL_POLICY_FILE = 'tool-policy.json';

/** The most approvals a rule may ask for: more than a team can gather in an approval's time. */
export const MAX_APPROVALS = 5;

const ruleSchema = z
  .object({
    tool: z
      .string()
      .trim()
      .refine(isToolRule, 'expected a tool or a permission rule as Claude Code writes them (Bash, Bash(git push*), mcp__server__tool)')
      .refine((rule) => !UNASKED_TOOLS.includes(ruleTool(rule)), {
        error: (issue) => `${ruleTool(String(issue.input))} runs without asking anybody, so no call of it can wait for approvals`,
      })
      .optional(),
    agent: z
      .string()
      .regex(/^[a-z0-9][a-z0-9-_]{0,63}$/, 'expected an agent\'s name (1-64 lower-case letters, digits, "-" or "_")')
      .optional(),
    approvals: z.number().int().min(2, 'expected 2 or more (one Allow is what every question takes)').max(MAX_APPROVALS),
  })
  .strict()
  .refine((rule) => rule.tool !== undefined || rule.agent !== undefined, 'expected "tool", "agent" or both');

const fileSchema = z.object({ rules: z.array(ruleSchema) }).strict();

/**
 * The rules of `BRIDGE_DATA_DIR/tool-policy.json`: none when there is no file; a file that
 * is not valid stops the start, naming the file and the field.
 */
export async function loadToolPolicy(dataDir: string): Promise<ApprovalRule[]> {
  const file = join(dataDir, TOOL_POLICY_FILE);
  const text = await readOperatorFile(file);
  return text === undefined ? [] : parseToolPolicy(text, file);
}

export function parseToolPolicy(text: string, file: string): ApprovalRule[] {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(`${file}: not valid JSON (${(error as Error).message})`);
  }
  const parsed = fileSchema.safeParse(json);
  if (!parsed.success) throw new ConfigError(`${file}: ${describeIssues(parsed.error.issues.slice(0, 1))}`);
  return parsed.data.rules;
}
