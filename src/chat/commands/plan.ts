import { canPlan } from '../../engine/adapters/live.ts';
import { plain } from '../../kernel/rich/index.ts';
import { UsageError, type Command } from '../dispatch/command.ts';

/**
 * `/plan [off]`: the next turns run in the CLI's plan mode: the agent looks around and
 * proposes a plan, which comes with Approve and Keep planning buttons; nothing changes before
 * Approve, and after it the agent goes on in the chat's permission mode.
 */
export const plan: Command = {
  name: 'plan',
  description: 'The next message is planned first: the agent proposes, you approve; off: plan no more',
  usage: '/plan [off]',
  async run({ chat, args }) {
    const wanted = args.trim().toLowerCase();
    if (wanted && wanted !== 'off' && wanted !== 'on') throw new UsageError(`"${args.trim()}" is neither on nor off.`);
    if (wanted === 'off') {
      const was = chat.record.planning === true;
      await chat.set({ planning: false });
      return plain(was ? '📋 Plan mode is off: messages run as usual.' : '📋 Plan mode was not on.');
    }
    if (!chat.agent.runsLive || !canPlan(chat.adapter)) throw new UsageError(`${chat.record.cli} has no plan mode the bridge can drive.`);
    await chat.set({ planning: true });
    const mode = chat.effectivePermissionMode;
    return plain(
      `📋 Plan mode: your next message gets a plan first, with Approve and Keep planning buttons. ${
        mode === 'safe' ? 'This chat stays read-only after Approve (/permissions safe).' : `After Approve the agent goes on in ${mode} mode.`
      } /plan off leaves it.`,
    );
  },
  async status(chat) {
    return chat.record.planning ? [['Plan mode', 'on: the next message is planned first (/plan off)']] : [];
  },
};
