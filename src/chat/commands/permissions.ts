import { canAsk, unsupportedMode } from '../../engine/adapters/permissions.ts';
import { isPermissionMode, PERMISSION_MODE_MEANING, PERMISSION_MODES } from '../../kernel/policy/permission-mode.ts';
import { plain } from '../../kernel/rich/index.ts';
import { describeRule } from '../../kernel/policy/approval-rules.ts';
import type { ChatSession } from '../session/chat-session.ts';
import { newSessionNotice } from '../session/outside-text.ts';
import { refuseWhileBusy, UsageError, type Command } from '../dispatch/command.ts';

/** `/permissions [safe|ask|bypass]`: how this chat's main session treats tools that need permission. */
export const permissions: Command = {
  name: 'permissions',
  description: "Show or set how this chat's agent treats tools that need permission",
  usage: '/permissions [safe|ask|bypass]',
  // Anyone may see the chat's mode; its admins change it.
  access: (args) => (args.trim() ? 'admin' : 'member'),
  async run({ chat, args }) {
    const wanted = args.trim().toLowerCase();
    if (!wanted) return plain(`${describeMode(chat)}\nChange it with /permissions ${PERMISSION_MODES.join('|')}.`);
    if (!isPermissionMode(wanted)) throw new UsageError(`Unknown permission mode "${wanted}": ${PERMISSION_MODES.join(', ')}.`);
    const unsupported = unsupportedMode(chat.adapter, wanted);
    if (unsupported) throw new UsageError(`${unsupported}.`);
    if (wanted === chat.permissionMode && chat.record.permissionMode) return plain(`Already so.\n${describeMode(chat)}`);
    refuseWhileBusy(chat);
    const left = await chat.change({ permissionMode: wanted });
    const next = left ? newSessionNotice(left, chat.effectivePermissionMode) : 'From the next message on; the conversation continues.';
    return plain(`${describeMode(chat)}\n${next}`);
  },
};

/** The chat's mode, what it means, and what its CLI actually does with it. */
export function describeMode(chat: ChatSession): string {
  const mode = chat.permissionMode;
  const lines = [`🔐 Permissions: ${mode}${chat.record.permissionMode ? '' : " (the bridge's default)"}: ${PERMISSION_MODE_MEANING[mode]}.`];
  const cli = chat.adapter;
  if (mode === 'ask' && !canAsk(cli, { live: chat.agent.runsLive })) {
    const flags = cli.permissions.safe?.join(' ');
    lines.push(
      `${cli.name} cannot ask the chat before a tool runs, so it runs read-only instead${flags ? ` (${flags})` : ''}. /permissions bypass lets it work unattended.`,
    );
  }
  if (mode === 'ask') lines.push('Subagents the agent starts ask here too.');
  if (chat.effectivePermissionMode === 'safe') lines.push('The agent cannot start subagents in this mode (they could do more than it).');
  // The mode binds every run spawned here, whoever asks: /spawn, a plan, the API.
  if (mode !== 'bypass') lines.push(`Runs spawned here (/spawn, plans, the API) ${mode === 'safe' ? 'only read too; no option lifts that' : 'ask here too'}.`);
  const rules = chat.approvalRules;
  if (rules.length) {
    const named = rules.map((rule) => `${describeRule(rule)} (${rule.approvals} people)`).join(', ');
    lines.push(`The tool policy needs several people's Allow, in every mode, for ${named}.`);
    if (chat.ruleRefusal()) lines.push(`${cli.name} cannot ask the bridge before each tool call, so its turns are refused here: ${chat.ruleWayOut()}`);
  }
  return lines.join('\n');
}
