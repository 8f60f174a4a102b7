import { formatProblem } from '../agents/problem.ts';
import type { AgentCatalog, AgentDefinition } from '../agents/types.ts';
import { escapeHtml, truncate } from './format/index.ts';
import type { RichText } from '../ports/transport.ts';

/** /agents: every definition with where it comes from, then what is wrong with the rest. */
export function agentList(catalog: AgentCatalog): RichText {
  const html: string[] = [];
  const plain: string[] = [];
  if (!catalog.agents.length) {
    const none =
      'No agents defined. Make one with /agents new <name> <prompt>, or add a folder .bridge/agents/<name>/ with agent.json and prompt.md in the working directory, or .claude/agents/<name>.md files.';
    html.push(escapeHtml(none));
    plain.push(none);
  } else {
    html.push('<b>Agents</b>');
    plain.push('Agents');
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
      html.push(`${escapeHtml(icon)} <code>${escapeHtml(agent.slug)}</code> ${escapeHtml(line)}`);
      plain.push(`${icon} ${agent.slug} ${line}`);
    }
    const hint =
      'Use one with /spawn --agent <name> "task"; the agent of a Claude Code chat delegates to them itself. /agents show|enable|disable <name>, /agents new <name> <prompt>.';
    html.push(`<i>${escapeHtml(hint)}</i>`);
    plain.push(hint);
  }
  if (catalog.problems.length) {
    const head = `⚠️ ${catalog.problems.length} problem${catalog.problems.length === 1 ? '' : 's'} (those definitions are skipped):`;
    html.push('', escapeHtml(head), ...catalog.problems.map((p) => `• ${escapeHtml(formatProblem(p))}`));
    plain.push('', head, ...catalog.problems.map((p) => `• ${formatProblem(p)}`));
  }
  for (const note of catalog.notes) {
    html.push(`<i>${escapeHtml(note)}</i>`);
    plain.push(note);
  }
  return { html: html.join('\n'), plain: plain.join('\n') };
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
  ];
  const set = fields.filter((field): field is [string, string] => field[1] !== undefined);
  const head = `${agent.icon ? `${agent.icon} ` : ''}${agent.slug}`;
  return {
    html: [
      `<b>${escapeHtml(head)}</b>`,
      ...set.map(([k, v]) => `${escapeHtml(k)}: ${escapeHtml(v)}`),
      '',
      '<b>Prompt</b>',
      `<pre>${escapeHtml(agent.prompt)}</pre>`,
    ].join('\n'),
    plain: [head, ...set.map(([k, v]) => `${k}: ${v}`), '', 'Prompt', agent.prompt].join('\n'),
  };
}
