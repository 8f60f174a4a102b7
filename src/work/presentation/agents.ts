import { formatCost } from './progress.ts';
import { formatProblem } from '../../engine/agents/problem.ts';
import type { AgentCatalog, AgentDefinition } from '../../engine/agents/types.ts';
import { truncate } from './format/index.ts';
import { bold, code, italic, lines, pre, rich, type Rich, type RichText } from '../../kernel/rich/index.ts';

/** /agents: every definition with where it comes from, then what is wrong with the rest. */
export function agentList(catalog: AgentCatalog): RichText {
  const out: Rich[] = [];
  if (!catalog.agents.length) {
    out.push(
      'No agents defined. Make one with /agents new <name> <prompt>, or add a folder .bridge/agents/<name>/ with agent.json and prompt.md in the working directory, or .claude/agents/<name>.md files.',
    );
  } else {
    out.push(bold('Agents'));
    for (const agent of catalog.agents) {
      const extras = [
        agent.cli,
        agent.model,
        agent.allowedTools ? `tools: ${agent.allowedTools.join(', ')}` : undefined,
        agent.mcpServers ? `MCP: ${agent.mcpServers.join(', ')}` : undefined,
        agent.enabled ? undefined : 'disabled',
      ]
        .filter(Boolean)
        .join(' · ');
      const icon = agent.enabled ? (agent.icon ?? '•') : '⏸';
      const line = `${agent.name}${extras ? ` (${extras})` : ''}: ${truncate(agent.description, 200)}`;
      out.push(rich`${icon} ${code(agent.slug)} ${line}`);
    }
    out.push(
      italic(
        'Use one with /spawn --agent <name> "task"; the agent of a Claude Code chat delegates to them itself. /agents show|enable|disable <name>, /agents new <name> <prompt>.',
      ),
    );
  }
  if (catalog.problems.length) {
    const head = `⚠️ ${catalog.problems.length} problem${catalog.problems.length === 1 ? '' : 's'} (those definitions are skipped):`;
    out.push('', head, ...catalog.problems.map((p) => `• ${formatProblem(p)}`));
  }
  for (const note of catalog.notes) out.push(italic(note));
  return lines(out);
}

const SOURCE: Record<AgentDefinition['source'], string> = {
  user: "the operator's (data directory)",
  workdir: "the project's (.bridge/agents)",
  claude: "the project's (.claude/agents)",
};

/** /agents show: every field that is set, where it comes from, then the prompt. */
export function agentDetails(agent: AgentDefinition): RichText {
  const fields: [string, string | undefined][] = [
    ['Name', agent.name],
    ['Description', agent.description],
    ['State', agent.enabled ? 'enabled' : 'disabled (/agents enable to run it)'],
    ['From', `${SOURCE[agent.source]}: ${agent.file}`],
    ['CLI', agent.cli],
    ['Model', agent.model],
    ['Tools', agent.allowedTools?.join(', ')],
    ['Disallowed tools', agent.disallowedTools?.join(', ')],
    ['MCP servers', agent.mcpServers?.join(', ')],
    ['Skills', agent.skills?.join(', ')],
    ['Max turns', agent.maxTurns === undefined ? undefined : String(agent.maxTurns)],
    ['Budget', agent.budgetUsd === undefined ? undefined : `${formatCost(agent.budgetUsd)} a run (stopped for cost once reached)`],
  ];
  const set = fields.filter((field): field is [string, string] => field[1] !== undefined);
  const head = `${agent.icon ? `${agent.icon} ` : ''}${agent.slug}`;
  return lines([bold(head), ...set.map(([k, v]) => `${k}: ${v}`), '', bold('Prompt'), pre(agent.prompt)]);
}
