import { nanoid } from 'nanoid';
import type { WireButton } from '../../kernel/ports/buttons.ts';
import { awaitAnswer, choiceButton } from './question.ts';
import { chatKey, type Button, type ButtonAnswer, type ButtonPress, type ChatRef, type MessageRef } from '../../kernel/ports/chat.ts';
import { code, italic, lines, rich, type RichText } from '../../kernel/rich/index.ts';
import type { ApprovalOptions } from './approval-broker.ts';
import type { Log } from '../../kernel/log/logger.ts';

/** What a person said of a host the sandbox was asked to reach, or that nobody said anything in time. */
export type HostAnswer = { choice: HostPress['choice']; by: string } | { choice: 'timeout' } | { choice: 'gone' };

const HOST = choiceButton('eh', ['once', 'session', 'deny']);
type HostPress = Parameters<typeof HOST.button>[1];

interface Open {
  chatKey: string;
  address: ChatRef;
  settle(answer: HostAnswer): void;
}

/**
 * A host a sandboxed agent may not reach yet, put to its chat (in `ask`) while the connection
 * waits: Allow once, Allow for this session, Deny. Only the people who may answer the chat's
 * approvals may answer; silence past the approval timeout is a refusal.
 */
export class HostQuestions {
  private readonly open = new Map<string, Open>();

  /** Asked as the approvals are: by the same timeout, of the same people. */
  constructor(private readonly options: Pick<ApprovalOptions, 'out' | 'timeoutMs' | 'mayAnswer'> & { log: Log }) {}

  /** Routes the presses of its buttons, through `button` (the bridge's). */
  wire(button: WireButton): void {
    button(HOST, (press, payload) => this.press(press, payload));
  }

  /**
   * Asks the chat about `reach.target` (host:port) at `reach.address` (where it resolves, what
   * an Allow lets it reach) for `who` (its CLI); `offerSession` where a person's turn it is (a
   * grant is theirs). `gone`: the connection closed meanwhile (the CLI gave up, or exited), and
   * the question is withdrawn.
   */
  async ask(address: ChatRef, who: string, reach: { target: string; address: string }, offerSession: boolean, gone?: AbortSignal): Promise<HostAnswer> {
    const id = nanoid(10);
    const { target } = reach;
    const at = target.replace(/^\[|\]?:\d+$/g, '') === reach.address ? rich`` : rich` at ${code(reach.address)}`;
    const text = rich`🌐 ${who} asks to reach ${code(target)}${at}, which is not on this chat's list (/net).`;
    const buttons: Button[][] = [
      [HOST.button('✅ Allow once', { id, choice: 'once' }), ...(offerSession ? [HOST.button('✅ Allow for this session', { id, choice: 'session' })] : [])],
      [HOST.button('⛔ Deny', { id, choice: 'deny' })],
    ];
    let ref: MessageRef | undefined;
    const settled = await awaitAnswer<HostAnswer>(this.options.timeoutMs, gone, (settle) => {
      this.open.set(id, { chatKey: chatKey(address), address, settle });
      const wait = italic(`Its connection waits. No answer within ${this.seconds} s means no.`);
      this.options.out.send(address, lines([text, wait]), { buttons }).then(
        (sent) => (ref = sent),
        (error: Error) => {
          this.options.log.warn({ chat: chatKey(address) }, `a question about ${target} could not be shown: ${error.message}`);
          settle('timeout');
        },
      );
    });
    this.open.delete(id);
    const answer: HostAnswer = settled === 'ended' ? { choice: 'gone' } : settled === 'timeout' ? { choice: 'timeout' } : settled;
    if (ref) void this.options.out.edit(ref, lines([text, verdictOf(answer, this.seconds)]), { buttons: [], urgent: true }).catch(() => {});
    return answer;
  }

  private get seconds(): number {
    return Math.round(this.options.timeoutMs / 1000);
  }

  private async press(press: ButtonPress, { id, choice }: HostPress): Promise<ButtonAnswer> {
    const open = this.open.get(id);
    if (!open) return { text: 'This request was already answered.' };
    if (open.chatKey !== chatKey(press.address)) return { text: 'This request belongs to another chat.' };
    if (!(await this.options.mayAnswer(open.address, press.user))) return { text: '⛔ Only people of this chat may answer it.', alert: true };
    if (this.open.get(id) !== open) return { text: 'This request was already answered.' };
    open.settle({ choice, by: press.user.name ?? String(press.user.id) });
    return { text: SAID[choice] };
  }
}

/** What a press said, on its toast and (with who pressed) on the question once decided. */
const SAID: Record<HostPress['choice'], string> = { once: '✅ Allowed once', session: '✅ Allowed for this session', deny: '⛔ Denied' };

function verdictOf(answer: HostAnswer, seconds: number): RichText {
  if (answer.choice === 'timeout') return rich`⛔ Denied: no answer within ${String(seconds)} s`;
  if (answer.choice === 'gone') return italic('The connection closed before an answer: nothing to decide.');
  return rich`${SAID[answer.choice]} by ${answer.by}`;
}
