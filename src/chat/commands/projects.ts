import { resolveDirectory } from '../../engine/projects/directories.ts';
import { plain } from '../../kernel/rich/index.ts';
import { displayPath } from '../../work/presentation/paths.ts';
import { UsageError, type CommandContext, type Command, refuseWhileBusy } from '../dispatch/command.ts';

/** `/cd [path]`: where this chat works, or a move within the project roots. */
export const cd: Command = {
  name: 'cd',
  description: "Show or change this chat's working directory",
  usage: '/cd [path]',
  access: 'member',
  async run(ctx) {
    const { bot, chat, args, reply } = ctx;
    const wanted = args.trim();
    if (!wanted) {
      const roots = bot.config.projectRoots.map((root) => displayPath(root)).join(', ');
      await reply(plain(`📁 ${chat.record.workdir}\nThis chat may work anywhere in ${roots}. Move with /cd <path> (relative to here), or /project.`));
      return;
    }
    const resolved = await resolveDirectory(chat.record.workdir, wanted, bot.config);
    if (!resolved.ok) throw new UsageError(resolved.error);
    await moveTo(ctx, resolved.dir);
  },
};

/** `/project [name]`: the named projects of BRIDGE_PROJECTS, or a move to one. */
export const project: Command = {
  name: 'project',
  description: 'List the named projects, or switch to one',
  usage: '/project [name]',
  access: 'member',
  async run(ctx) {
    const { bot, chat, args, reply } = ctx;
    const { projects } = bot.config;
    const wanted = args.trim();
    if (!wanted) {
      if (!projects.size) {
        await reply(
          plain('No named projects: the operator can list some in BRIDGE_PROJECTS (name=path,…). /cd moves to any directory within the project roots.'),
        );
        return;
      }
      const lines = [...projects].map(([name, dir]) => `${dir === chat.record.workdir ? '▸' : '•'} ${name}: ${displayPath(dir)}`);
      await reply(plain(`Projects\n${lines.join('\n')}\nSwitch with /project <name>.`));
      return;
    }
    const dir = projects.get(wanted);
    if (!dir)
      throw new UsageError(`No project "${wanted}". ${projects.size ? `Known: ${[...projects.keys()].join(', ')}.` : 'None are named (BRIDGE_PROJECTS).'}`);
    await moveTo(ctx, dir);
  },
};

/** A CLI's sessions belong to their directory: a move starts a fresh one, and says so. */
async function moveTo({ chat, reply }: CommandContext, dir: string): Promise<void> {
  if (dir === chat.record.workdir) {
    await reply(plain(`📁 Already in ${dir}.`));
    return;
  }
  refuseWhileBusy(chat);
  await chat.change({ workdir: dir });
  await reply(
    plain(
      `📁 Now in ${dir}. The next message starts a fresh ${chat.record.cli} session (a CLI's sessions belong to their directory); subagents start here too.`,
    ),
  );
}
