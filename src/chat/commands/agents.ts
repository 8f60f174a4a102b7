import { chooseAgent } from '../../engine/agents/catalog.ts';
import type { AgentLibrary } from '../../engine/agents/library.ts';
import { agentDetails, agentList } from '../../work/presentation/agents.ts';
import { plain, plainText, type RichText } from '../../kernel/rich/index.ts';
import { UsageError, type Command, type CommandContext } from '../dispatch/command.ts';

/** A definition longer than this is sent as a file: a chat message would be split mid-prompt. */
const SHOW_INLINE_CHARS = 3000;
/** A new agent's description, when none is given: the prompt's first line, this long at most. */
const DESCRIPTION_CHARS = 120;

/**
 * /agents: list, show, enable, disable, new. A chat changes only what the data directory
 * holds (switches, and new agents under `<BRIDGE_DATA_DIR>/agents`): the files of a
 * project are read, never written.
 */
export const agents: Command = {
  name: 'agents',
  description: 'Your agents: list, show, enable, disable, or make a new one',
  usage: '/agents [list | show <name> | enable <name> | disable <name> | new <name> [--description "…"] <prompt, or reply to it>]',
  // Anyone may list and read the agents; the chat's admins enable, disable and make them.
  access: (args) => (/^\s*(enable|disable|new)\b/i.test(args) ? 'admin' : 'member'),
  async run(ctx) {
    const agents = ctx.services.agents;
    const [sub = 'list', ...rest] = ctx.args.trim().split(/\s+/).filter(Boolean);
    const name = rest[0]?.toLowerCase();
    const workdir = ctx.chat.record.workdir;
    switch (sub.toLowerCase()) {
      case 'list':
        return agentList(await agents.catalog(workdir));
      case 'show':
        return show(ctx, agents, need(name));
      case 'enable':
      case 'disable': {
        const enabled = sub.toLowerCase() === 'enable';
        const changed = await agents.setEnabled(workdir, need(name), enabled);
        if (typeof changed === 'string') throw new UsageError(changed);
        return plain(
          enabled
            ? `${changed.icon ?? '✅'} ${changed.slug} is enabled: /spawn --agent ${changed.slug} runs it, and the agent's Task tool may use it from the next message.`
            : `⏸ ${changed.slug} is disabled: nothing runs it until /agents enable ${changed.slug}. Its file is unchanged.`,
        );
      }
      case 'new':
        return create(ctx, agents);
      default:
        throw new UsageError(`Unknown /agents command "${sub}".`);
    }
  },
};

function need(name: string | undefined): string {
  if (!name) throw new UsageError('Name the agent.');
  return name;
}

async function show(ctx: CommandContext, agents: AgentLibrary, name: string): Promise<RichText | void> {
  const catalog = await agents.catalog(ctx.chat.record.workdir);
  const agent = catalog.get(name);
  if (!agent) {
    const why = chooseAgent(catalog, name);
    throw new UsageError(typeof why === 'string' ? why : `No agent "${name}".`);
  }
  const details = agentDetails(agent);
  if (plainText(details).length <= SHOW_INLINE_CHARS) return details;
  await ctx.bot.out.sendDocument(ctx.chat.address, {
    filename: `${agent.slug}.md`,
    content: plainText(details),
    caption: plain(`${agent.icon ? `${agent.icon} ` : ''}${agent.name}: its definition and prompt (${agent.file})`),
  });
}

/** `/agents new <name> [--description "…"] <prompt>`, or the prompt in the message replied to. */
async function create(ctx: CommandContext, agents: AgentLibrary): Promise<RichText> {
  const match = /^new\s+(\S+)\s*(?:--description\s+"([^"]*)"\s*)?([\s\S]*)$/i.exec(ctx.args.trim());
  if (!match) throw new UsageError('Name the new agent: /agents new <name> <prompt>.');
  const slug = match[1]!.toLowerCase();
  const prompt = (match[3]!.trim() || ctx.message.replyTo?.text.trim()) ?? '';
  if (!prompt) throw new UsageError(`Give ${slug} its prompt: after the name, or reply to a message holding it.`);
  const firstLine = prompt.split('\n')[0]!.trim();
  const description = match[2]?.trim() || (firstLine.length > DESCRIPTION_CHARS ? `${firstLine.slice(0, DESCRIPTION_CHARS - 1)}…` : firstLine);
  const existing = (await agents.catalog(ctx.chat.record.workdir)).get(slug);
  const made = await agents.create({ slug, description, prompt });
  if (typeof made === 'string') throw new UsageError(made);
  const shadow = existing && existing.source !== 'user' ? ` It takes the place of the project's ${slug} (${existing.file}), which is unchanged.` : '';
  return plain(`🆕 Agent ${slug} saved in ${made.file}: "${description}".${shadow} /agents show ${slug} shows it; /spawn --agent ${slug} runs it.`);
}
