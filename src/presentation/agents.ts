import { formatProblem } from '../agents/problem.ts';
import type { AgentCatalog } from '../agents/types.ts';
import { escapeHtml, truncate } from './format/index.ts';
import type { RichText } from '../ports/transport.ts';

/** /agents: every definition with where it comes from, then what is wrong with the rest. */
export function agentList(catalog: AgentCatalog): RichText {
  const html: string[] = [];
  const plain: string[] = [];
  if (!catalog.agents.length) {
    const none =
      'No agents defined. Add a folder .bridge/agents/<name>/ with agent.json and prompt.md in the working directory, or .claude/agents/<name>.md files.';
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
        agent.enabled ? undefined : 'disabled',
      ]
        .filter(Boolean)
        .join(' · ');
      const line = `${agent.name}${extras ? ` (${extras})` : ''}: ${truncate(agent.description, 200)}`;
      html.push(`<code>${escapeHtml(agent.slug)}</code> ${escapeHtml(line)}`);
      plain.push(`${agent.slug} ${line}`);
    }
    html.push('<i>Use one with /spawn --agent &lt;name&gt; "task".</i>');
    plain.push('Use one with /spawn --agent <name> "task".');
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
