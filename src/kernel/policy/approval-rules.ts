import { ruleToolNames } from '../protocols/index.ts';
import { commandFallsUnder } from './shell-rule.ts';
import type { ToolPolicy } from './tool-policy.ts';
import { ruleTool } from './tool-rules.ts';

/**
 * One rule of the operator's tool policy (`BRIDGE_DATA_DIR/tool-policy.json`): the calls it
 * covers need `approvals` distinct people's Allow. `tool` is a Claude Code permission rule
 * (`Bash(git push*)`, `Bash(*deploy*)`, `Edit(deploy/**)`, `mcp__prod`); `agent` names an
 * agent whose every call it covers; with both, only that tool in that agent's work.
 */
export interface ApprovalRule {
  tool?: string;
  agent?: string;
  approvals: number;
}

/** A call as a rule sees it: the tool, its input, and the agent whose work it is (a run's `--agent`). */
export interface RuledCall {
  tool: string;
  input: Record<string, unknown>;
  agent?: string;
}

/** What a piece of work may do, as far as rules care: whether it only reads, its tool lists, its agent. */
type RuledWork = Pick<ToolPolicy, 'readOnly' | 'allowedTools' | 'disallowedTools'> & { agent?: string };

/** The tools Claude Code runs without asking anybody: the bridge never sees their calls, so no rule can hold them. */
export const UNASKED_TOOLS: readonly string[] = ['Read', 'Grep', 'Glob', 'LS', 'NotebookRead', 'TodoWrite', 'Task', 'Agent'];

/** How a chat and the audit log name a rule: `Bash(git push*)`, `agent deployer`, `Bash in agent deployer`. */
export function describeRule(rule: ApprovalRule): string {
  if (rule.tool && rule.agent) return `${rule.tool} in agent ${rule.agent}`;
  return rule.tool ?? `agent ${rule.agent ?? ''}`;
}

/** The sentence refusing work to a CLI that cannot ask the bridge before each tool call, naming the rule it would break. */
export function cannotHonour(cli: string, rule: ApprovalRule, refused: string): string {
  return `${cli} cannot ask the bridge before each tool call, and the tool policy (tool-policy.json) needs ${rule.approvals} people's Allow for ${describeRule(rule)}, so ${refused}.`;
}

/** The agents a rule names: their work is done only by runs of their own, where the rule binds (never inside another session's Task tool). */
export function ruledAgents(rules: readonly ApprovalRule[]): Set<string> {
  return new Set(rules.flatMap((rule) => (rule.agent !== undefined ? [rule.agent] : [])));
}

/** The rule a call falls under that needs the most approvals (the first of those), or undefined. */
export function ruleFor(rules: readonly ApprovalRule[], call: RuledCall): ApprovalRule | undefined {
  let found: ApprovalRule | undefined;
  for (const rule of rules) if (callFallsUnder(rule, call) && (!found || rule.approvals > found.approvals)) found = rule;
  return found;
}

/**
 * The rules a piece of work could meet: an agent's rules in that agent's work, a tool's where
 * the work may use the tool. Work that only reads meets none: every tool a rule may name needs
 * permission, which read-only work never gets.
 */
export function rulesCovering(rules: readonly ApprovalRule[], work: RuledWork): ApprovalRule[] {
  if (work.readOnly) return [];
  return rules.filter((rule) => {
    if (rule.agent !== undefined && rule.agent !== work.agent) return false;
    if (rule.tool === undefined) return true;
    const tool = ruleTool(rule.tool);
    if (work.disallowedTools?.some((denied) => denied === tool || (!denied.includes('(') && globName(denied).test(tool)))) return false;
    return !work.allowedTools || work.allowedTools.some((allowed) => globName(ruleTool(allowed)).test(tool) || globName(tool).test(ruleTool(allowed)));
  });
}

/**
 * Whether a call falls under a rule. Unlike auto-approval, which matches narrowly so that
 * nothing is approved by a guess, this matches widely, so that nothing escapes a rule by a
 * guess: a command is matched as the shell would run it, in each of its commands and through
 * wrappers (`cd x && env git -C . push`), one it cannot read binds, and a specifier the bridge
 * cannot read covers every call of its tool.
 */
export function callFallsUnder(rule: ApprovalRule, call: RuledCall): boolean {
  if (rule.agent !== undefined && !inAgent(rule.agent, call)) return false;
  if (rule.tool === undefined) return true;
  const name = ruleTool(rule.tool);
  const tool = ruleToolNames[call.tool] ?? call.tool;
  if (!globName(name).test(tool)) return false;
  if (rule.tool === name) return true;
  const spec = rule.tool.slice(name.length + 1, -1);
  return specifierMatches(tool, spec, call.input);
}

/** A call is in an agent's work when the work is the agent's, or when it hands work to the agent (the Task tool). */
function inAgent(agent: string, call: RuledCall): boolean {
  if (call.agent === agent) return true;
  return (call.tool === 'Task' || call.tool === 'Agent') && call.input.subagent_type === agent;
}

function specifierMatches(tool: string, spec: string, input: Record<string, unknown>): boolean {
  if (tool === 'Bash') return typeof input.command === 'string' ? commandFallsUnder(spec, input.command) : true;
  const path = input.file_path ?? input.notebook_path ?? input.path;
  if (['Edit', 'MultiEdit', 'Write', 'NotebookEdit'].includes(tool) && typeof path === 'string') return pathMatches(spec, path);
  if (tool === 'WebFetch' && spec.startsWith('domain:') && typeof input.url === 'string') return domainMatches(spec.slice('domain:'.length), input.url);
  return true;
}

/** `src/**`, `//etc/**` (absolute), `*.env`: gitignore-like, matched at the end of the call's path. */
function pathMatches(spec: string, path: string): boolean {
  const absolute = spec.startsWith('//');
  const glob = absolute ? spec.slice(1) : spec.replace(/^\.?\//, '');
  const body = glob
    .split(/(\*\*\/?|\*)/)
    .map((piece) => (piece === '**' || piece === '**/' ? '.*' : piece === '*' ? '[^/]*' : escapeRegExp(piece)))
    .join('');
  return new RegExp(absolute ? `^${body}$` : `(?:^|/)${body}$`).test(path);
}

/** A URL that does not parse matches: nothing escapes a rule by a guess. */
function domainMatches(domain: string, url: string): boolean {
  const host = URL.canParse(url) ? new URL(url).hostname : undefined;
  return host === undefined || host === domain || host.endsWith(`.${domain}`);
}

/** A tool name with `*` in it (`mcp__prod__*`); a bare `mcp__server` covers its server's tools. */
function globName(name: string): RegExp {
  const body = name.split('*').map(escapeRegExp).join('.*');
  return new RegExp(name.startsWith('mcp__') && !name.slice(5).includes('__') ? `^${body}(?:__.*)?$` : `^${body}$`);
}

/** A name as a regular expression matches it, letter for letter. */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&');
}
