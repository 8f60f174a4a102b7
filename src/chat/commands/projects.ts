import { resolveDirectory } from '../../engine/projects/directories.ts';
import { plain, type RichText } from '../../kernel/rich/index.ts';
import { displayPath } from '../../work/presentation/paths.ts';
import { UsageError, type CommandContext, type Command, refuseWhileBusy } from '../dispatch/command.ts';

/** `/cd [path]`: where this chat works, or a move within the project roots. */
export const cd: Command = {
  name: 'cd',
  description: "Show or change this chat's working directory",
  usage: '/cd [path]',
  async run(ctx) {
    const { bot, chat, args } = ctx;
    const wanted = args.trim();
    if (!wanted) {
      const roots = bot.config.projectRoots.map((root) => displayPath(root)).join(', ');
      return plain(`📁 ${chat.record.workdir}\nThis chat may work anywhere in ${roots}. Move with /cd <path> (relative to here), or /project.`);
    }
    const resolved = await resolveDirectory(chat.record.workdir, wanted, bot.config);
    if (!resolved.ok) throw new UsageError(resolved.error);
    return moveTo(ctx, resolved.dir);
  },
};

/** `/project [name]`: the named projects of BRIDGE_PROJECTS, or a move to one. */
export const project: Command = {
  name: 'project',
  description: 'List the named projects, or switch to one',
  usage: '/project [name]',
  async run(ctx) {
    const { bot, chat, args } = ctx;
    const { projects } = bot.config;
    const wanted = args.trim();
    if (!wanted) {
      if (!projects.size)
        return plain('No named projects: the operator can list some in BRIDGE_PROJECTS (name=path,…). /cd moves to any directory within the project roots.');
      const lines = [...projects].map(([name, dir]) => `${dir === chat.record.workdir ? '▸' : '•'} ${name}: ${displayPath(dir)}`);
      return plain(`Projects\n${lines.join('\n')}\nSwitch with /project <name>.`);
    }
    const dir = projects.get(wanted);
    if (!dir)
      throw new UsageError(`No project "${wanted}". ${projects.size ? `Known: ${[...projects.keys()].join(', ')}.` : 'None are named (BRIDGE_PROJECTS).'}`);
    return moveTo(ctx, dir);
  },
};

/** A CLI's sessions belong to their directory: a move starts a fresh one, and says so. */
async function moveTo({ chat }: CommandContext, dir: string): Promise<RichText> {
  if (dir === chat.record.workdir) return plain(`📁 Already in ${dir}.`);
  refuseWhileBusy(chat);
  await chat.change({ workdir: dir });
  return plain(
    `📁 Now in ${dir}. The next message starts a fresh ${chat.record.cli} session (a CLI's sessions belong to their directory); subagents start here too.`,
  );
}
