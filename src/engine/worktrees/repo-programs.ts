import { agentUser } from '../process/agent-user.ts';
import { git } from './git.ts';

/** Config keys whose value is a program git runs while it checks files out or merges them, chosen by the repository's own .gitattributes. */
const PROGRAM_KEY = /^(filter\..+\.(clean|smudge|process)|merge\..+\.driver)$/i;

/**
 * The first config setting in `cwd`'s repository that makes git run a program of the
 * repository's choosing during a checkout or a merge: a filter or a merge driver, set in its
 * own config (`.git/config`, `config.worktree`, any file they include), which an agent working
 * there can write. Undefined when there is none. A driver from the system config is the
 * machine's; one from the global config is the operator's, unless git runs as the agent user,
 * whose home an agent writes. Signing, hooks and fsmonitor are switched off for every command
 * (see git.ts); diffs never run textconv or an external diff.
 */
export async function repositoryProgram(cwd: string): Promise<{ key: string; file: string } | undefined> {
  const theirs = new Set(['local', 'worktree', ...(agentUser() ? ['global'] : [])]);
  const listed = await git(['config', '--list', '--show-scope', '--show-origin', '-z'], { cwd });
  const fields = listed.split('\0');
  for (let i = 0; i + 2 < fields.length; i += 3) {
    const [scope = '', origin = '', entry = ''] = [fields[i], fields[i + 1], fields[i + 2]];
    const key = entry.split('\n', 1)[0]!;
    if (theirs.has(scope) && PROGRAM_KEY.test(key)) return { key, file: origin.replace(/^file:/, '') };
  }
  return undefined;
}
