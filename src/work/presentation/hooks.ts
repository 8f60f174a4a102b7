import type { Hook } from '../../services/hooks/hooks-file.ts';
import { lines, plain, type RichText } from '../../kernel/rich/index.ts';

/** /hooks: a chat's webhooks, each with its URL and what it does; never a secret. */
export function hookList(hooks: readonly Hook[], where: { url?: string | undefined; file: string }): RichText {
  if (!hooks.length) return plain(`No webhooks for this chat. They are defined in ${where.file} (docs/webhooks.md says how).`);
  return lines([
    `🪝 ${hooks.length} webhook${hooks.length === 1 ? '' : 's'} for this chat:`,
    ...hooks.map((hook) => hookLine(hook, where.url)),
    where.url
      ? `Each takes a POST with a JSON body; their secrets are in ${where.file}.`
      : '⚠️ The web server is off (BRIDGE_WEB_ADDR is not set): no webhook can be reached.',
  ]);
}

function hookLine(hook: Hook, url: string | undefined): string {
  const signed = hook.signature === 'github' ? 'GitHub signature' : 'bearer secret';
  const what = hook.spawn === false ? 'a turn' : `a run${runOptions(hook.spawn)}`;
  const topic = hook.chat.thread === undefined ? '' : ` · topic ${hook.chat.thread}`;
  return `• ${hook.name}: ${url ? `${url}/hooks/${hook.name}` : `/hooks/${hook.name}`} · ${signed} · ${what} · ${hook.mode} mode · ${hook.perMinute}/min${topic}`;
}

function runOptions(spawn: Exclude<Hook['spawn'], false>): string {
  const options = [
    spawn.label && `label ${spawn.label}`,
    spawn.cli && `cli ${spawn.cli}`,
    spawn.model && `model ${spawn.model}`,
    spawn.agent && `agent ${spawn.agent}`,
    spawn.worktree && 'worktree',
    spawn.timeout && `timeout ${spawn.timeout} s`,
  ].filter(Boolean);
  return options.length ? ` (${options.join(', ')})` : '';
}
