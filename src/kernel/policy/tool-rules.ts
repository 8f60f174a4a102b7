/**
 * Tool lists as Claude Code writes them: `Read`, `Bash(git log:*)`, `Read(src/**)`,
 * `mcp__server`, `mcp__server__tool`. The bridge passes rules through unchanged; it only
 * needs to split a list, check the syntax, know which tool a rule is about, and match the
 * simple rules it auto-approves by.
 */

/** A name, then optionally one parenthesised specifier (which may hold parentheses of its own). */
const RULE = /^[A-Za-z_][\w.-]*(?:\((?:[^()\n]|\([^()\n]*\))*\))?$/;

export function isToolRule(text: string): boolean {
  return RULE.test(text);
}

/** `Bash(git log:*), Read` → two rules: commas inside a specifier do not split. */
export function splitToolRules(text: string): string[] {
  const rules: string[] = [];
  let depth = 0;
  let current = '';
  for (const char of text) {
    if (char === '(') depth++;
    else if (char === ')') depth = Math.max(0, depth - 1);
    if (char === ',' && depth === 0) {
      rules.push(current);
      current = '';
    } else current += char;
  }
  rules.push(current);
  return rules.map((rule) => rule.trim()).filter(Boolean);
}

/** The tool a rule is about: `Bash(git log:*)` → `Bash`. */
export function ruleTool(rule: string): string {
  const open = rule.indexOf('(');
  return open < 0 ? rule : rule.slice(0, open);
}

/**
 * Whether a call falls under a rule, for the bridge's own auto-approval: a bare name covers
 * every call of that tool; `Bash(prefix:*)` a command starting with the prefix; `Bash(cmd)`
 * that exact command. Any other specifier is not matched here: such calls are asked, never
 * approved by a guess.
 */
export function ruleMatches(rule: string, tool: string, input: Record<string, unknown>): boolean {
  if (ruleTool(rule) !== tool) return false;
  if (rule === tool) return true;
  const spec = rule.slice(tool.length + 1, -1);
  if (tool !== 'Bash' || typeof input.command !== 'string') return false;
  const command = input.command.trim();
  if (spec.endsWith(':*')) {
    const prefix = spec.slice(0, -2);
    return command === prefix || command.startsWith(`${prefix} `);
  }
  return command === spec;
}

/** Whether everything a child's rule allows, its parent's rule allows too: the same rule, or the bare tool. */
export function ruleCovers(parent: string, child: string): boolean {
  return parent === child || (!parent.includes('(') && ruleTool(child) === parent);
}
