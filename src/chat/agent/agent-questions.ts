import { nanoid } from 'nanoid';
import { z } from 'zod';
import type { WireButton } from '../../kernel/ports/buttons.ts';
import {
  chatKey,
  type Button,
  type ButtonAnswer,
  type ButtonPress,
  type ChatRef,
  type IncomingMessage,
  type MessageRef,
  type Outbound,
} from '../../kernel/ports/chat.ts';
import type { PermissionDecision } from '../../kernel/protocols/events.ts';
import { bold, italic, lines, plain, rich, type RichText } from '../../kernel/rich/index.ts';
import { truncate } from '../../work/presentation/format/index.ts';
import { awaitAnswer, choiceButton } from '../../work/approvals/question.ts';
import type { Log } from '../../kernel/log/logger.ts';

/** The tool an agent asks the chat a question with (Claude Code's), its options as buttons. */
export const QUESTION_TOOL = 'AskUserQuestion';

/** AskUserQuestion's input, as far as the bridge needs it: anything else is passed back untouched. */
const questionsInput = z.object({
  questions: z
    .array(
      z.object({
        question: z.string().min(1),
        header: z.string().optional(),
        options: z.array(z.object({ label: z.string().min(1), description: z.string().optional() })).default([]),
        multiSelect: z.boolean().optional(),
      }),
    )
    .min(1)
    .max(8),
});
type Question = z.infer<typeof questionsInput>['questions'][number];

/** A press on a question: an option by its index (0 to 99), Other (answered by the next message), or Done (multi-select). */
const ANSWER = choiceButton('aq', ['other', 'done', ...Array.from({ length: 100 }, (_, index) => String(index))]);
type QuestionPress = Parameters<typeof ANSWER.button>[1];
const PLAN = choiceButton('pl', ['approve', 'keep']);
type PlanPress = Parameters<typeof PLAN.button>[1];

/** A plan longer than this is cut in its message (the agent keeps the whole plan). */
const PLAN_CHARS = 3500;

interface OpenQuestion {
  chatKey: string;
  question: Question;
  picked: Set<number>;
  /** Its message, once the chat shows it (a message sent before then cannot be its answer). */
  ref?: MessageRef;
  /** Who pressed Other: their next message in the chat is the answer. */
  typing?: string;
  answer(text: string, by: string): void;
}

interface OpenPlan {
  chatKey: string;
  ref: MessageRef;
  decide(approved: boolean, by: string, feedback?: string): void;
}

/**
 * The agent's questions (AskUserQuestion) and plans (plan mode's ExitPlanMode) put to the chat
 * as buttons, answered by whoever may use the chat. An answer goes back as the tool's result;
 * a turn that ends first withdraws them.
 */
export class AgentQuestions {
  private readonly questions = new Map<string, OpenQuestion>();
  private readonly plans = new Map<string, OpenPlan>();

  constructor(
    private readonly options: {
      out: Outbound;
      /** How long a question or plan waits for someone (approvalTimeoutSeconds): the agent then goes on without it. */
      timeoutMs: number;
      log: Log;
    },
  ) {}

  /** Routes the presses of its buttons, through `button` (the bridge's). */
  wire(button: WireButton): void {
    button(ANSWER, (press, payload) => this.pressQuestion(press, payload));
    button(PLAN, (press, payload) => this.pressPlan(press, payload));
  }

  /** Each question in turn, its options as buttons; the answers go back as `answers` (question → label). */
  async ask(address: ChatRef, input: Record<string, unknown>, signal: AbortSignal): Promise<PermissionDecision> {
    const parsed = questionsInput.safeParse(input);
    if (!parsed.success) return { behavior: 'deny', message: `The questions could not be shown: ${parsed.error.issues[0]?.message ?? 'bad input'}.` };
    const answers: Record<string, string> = {};
    for (const question of parsed.data.questions) {
      const answer = await this.askOne(address, question, signal);
      if (answer === 'ended') return { behavior: 'deny', message: 'The turn ended before the question was answered.' };
      if (answer === 'timeout')
        return {
          behavior: 'deny',
          message: `Nobody answered "${question.question}" within ${this.minutes}: go on with your best judgment, and say what you assumed.`,
        };
      answers[question.question] = answer.text;
    }
    return { behavior: 'allow', updatedInput: { ...input, answers } };
  }

  /** The plan with Approve and Keep planning: Approve lets the agent go on, Keep planning keeps it planning. */
  async plan(address: ChatRef, plan: string, signal: AbortSignal): Promise<PermissionDecision> {
    const id = nanoid(10);
    const text = lines([bold('📋 Plan'), plain(truncate(plan.trim() || '(the agent gave no plan text)', PLAN_CHARS))]);
    const buttons: Button[][] = [[PLAN.button('✅ Approve', { id, choice: 'approve' }), PLAN.button('✏️ Keep planning', { id, choice: 'keep' })]];
    const ref = await this.options.out
      .send(address, lines([text, italic(`Or send what to change as a message. No answer within ${this.minutes} means not approved.`)]), { buttons })
      .catch((error: Error) => {
        this.options.log.warn(`the plan could not be shown: ${error.message}`);
        return undefined;
      });
    if (!ref) return { behavior: 'deny', message: 'The plan could not be shown in the chat; say so, and wait.' };
    const approved = await awaitAnswer<{ approved: boolean; by: string; feedback?: string }>(this.options.timeoutMs, signal, (settle) =>
      this.plans.set(id, {
        chatKey: chatKey(address),
        ref,
        decide: (yes, by, feedback) => settle({ approved: yes, by, ...(feedback ? { feedback } : {}) }),
      }),
    );
    this.plans.delete(id);
    // What the plan's message says of how it ended, and what the agent is told.
    const [verdict, decision]: [RichText, PermissionDecision] =
      approved === 'ended'
        ? [italic('The turn ended first.'), { behavior: 'deny', message: 'The turn ended before the plan was approved.' }]
        : approved === 'timeout'
          ? [
              italic(`⌛ Not approved within ${this.minutes}: the agent stopped to wait.`),
              { behavior: 'deny', message: `Nobody approved the plan within ${this.minutes}: stop here, change nothing, and wait for the user.` },
            ]
          : approved.approved
            ? [rich`✅ Approved by ${approved.by}`, { behavior: 'allow', updatedInput: {} }]
            : approved.feedback
              ? [
                  rich`✏️ ${approved.by}: ${truncate(approved.feedback, 300)}`,
                  { behavior: 'deny', message: `${approved.by} wants changes to the plan: ${approved.feedback}\nRevise the plan.` },
                ]
              : [
                  rich`✏️ ${approved.by} keeps planning`,
                  { behavior: 'deny', message: `${approved.by} wants to keep planning: wait for their feedback, then revise the plan.` },
                ];
    void this.options.out.edit(ref, lines([text, verdict]), { buttons: [], urgent: true }).catch(() => {});
    return decision;
  }

  /**
   * A message that answers what waits in its chat, not a prompt: a question's answer from
   * whoever pressed Other, or from the person whose message started the turn (typing the answer
   * is as good as a button); from that person too, changes to a waiting plan (Keep planning,
   * with what to change). Only a message sent after the chat showed the question or plan can
   * answer it: one sent before (in flight, or waiting out a restart) was written without it, and
   * goes on as usual, as does anyone else's message.
   */
  take(message: Pick<IncomingMessage, 'address' | 'user' | 'text' | 'order'>, turnStartedBy?: string): boolean {
    const key = chatKey(message.address);
    const text = message.text.trim();
    if (!text) return false;
    const by = message.user.name ?? message.user.id;
    const starter = message.user.id === turnStartedBy;
    // Where the transport does not number its messages, they are live: any message after the question is shown comes after it.
    const seen = (shown: MessageRef | undefined) =>
      shown !== undefined && (message.order === undefined || shown.order === undefined || message.order > shown.order);
    const waiting = [...this.questions.values()].filter((question) => question.chatKey === key && seen(question.ref));
    const question = waiting.find((open) => open.typing === message.user.id) ?? (starter ? waiting[0] : undefined);
    if (question) {
      question.answer(text, by);
      return true;
    }
    const plan = starter ? [...this.plans.values()].find((open) => open.chatKey === key && seen(open.ref)) : undefined;
    if (!plan) return false;
    plan.decide(false, by, text);
    return true;
  }

  private async askOne(address: ChatRef, question: Question, signal: AbortSignal): Promise<{ text: string; by: string } | 'ended' | 'timeout'> {
    const id = nanoid(10);
    const multi = question.multiSelect === true && question.options.length > 1;
    const open: OpenQuestion = { chatKey: chatKey(address), question, picked: new Set(), answer: () => {} };
    let shown: Promise<MessageRef | undefined> = Promise.resolve(undefined);
    const answer = await awaitAnswer<{ text: string; by: string }>(this.options.timeoutMs, signal, (settle) => {
      open.answer = (text, by) => settle({ text, by });
      this.questions.set(id, open);
      shown = this.options.out.send(address, this.openText(question), { buttons: questionButtons(id, question, open.picked, multi) }).then(
        (ref) => (open.ref = ref),
        (error: Error) => {
          this.options.log.warn(`a question could not be shown: ${error.message}`);
          settle('ended');
          return undefined;
        },
      );
    });
    this.questions.delete(id);
    const verdict =
      answer === 'ended'
        ? italic('The turn ended first.')
        : answer === 'timeout'
          ? italic(`⌛ No answer within ${this.minutes}: the agent goes on without it.`)
          : rich`✅ ${answer.text} (${answer.by})`;
    // Settled before its message was out (a turn ending at once): the message still says how, once it is.
    void shown.then((ref) => ref && this.options.out.edit(ref, lines([questionText(question), verdict]), { buttons: [], urgent: true })).catch(() => {});
    return answer;
  }

  /** A question still waiting: it says how long it waits. */
  private openText(question: Question): RichText {
    return lines([
      questionText(question),
      italic(`Press one, or send your answer as a message. No answer within ${this.minutes} means the agent goes on without it.`),
    ]);
  }

  /** The wait, as the chat reads it. */
  private get minutes(): string {
    return `${Math.max(1, Math.round(this.options.timeoutMs / 60_000))} min`;
  }

  private async pressQuestion(press: ButtonPress, { id, choice }: QuestionPress): Promise<ButtonAnswer> {
    const open = this.questions.get(id);
    if (!open) return { text: 'This question was already answered.' };
    if (open.chatKey !== chatKey(press.address)) return { text: 'This question belongs to another chat.' };
    const by = press.user.name ?? press.user.id;
    const { options } = open.question;
    const multi = open.question.multiSelect === true && options.length > 1;
    if (choice === 'other') {
      open.typing = press.user.id;
      return { text: '✏️ Send your answer as a message.' };
    }
    if (choice === 'done') {
      if (!open.picked.size) return { text: 'Pick at least one option first.' };
      open.answer(
        options
          .filter((_, index) => open.picked.has(index))
          .map((option) => option.label)
          .join(', '),
        by,
      );
      return { text: '✅ Answered' };
    }
    const index = Number(choice);
    const option = options[index];
    if (!option) return { text: 'That option is gone.' };
    if (!multi) {
      open.answer(option.label, by);
      return { text: `✅ ${truncate(option.label, 40)}` };
    }
    if (open.picked.has(index)) open.picked.delete(index);
    else open.picked.add(index);
    if (open.ref)
      void this.options.out
        .edit(open.ref, this.openText(open.question), { buttons: questionButtons(id, open.question, open.picked, true), urgent: true })
        .catch(() => {});
    return { text: open.picked.has(index) ? `☑️ ${truncate(option.label, 40)}` : `⬜ ${truncate(option.label, 40)}` };
  }

  private async pressPlan(press: ButtonPress, { id, choice }: PlanPress): Promise<ButtonAnswer> {
    const open = this.plans.get(id);
    if (!open) return { text: 'This plan was already answered.' };
    if (open.chatKey !== chatKey(press.address)) return { text: 'This plan belongs to another chat.' };
    open.decide(choice === 'approve', press.user.name ?? press.user.id);
    return { text: choice === 'approve' ? '✅ Approved' : '✏️ Keep planning: send what to change.' };
  }
}

function questionText(question: Question): RichText {
  const head = question.header ? rich`❓ ${bold(question.header)}` : plain('❓ The agent asks');
  const options = question.options.map((option) => plain(option.description ? `• ${option.label}: ${option.description}` : `• ${option.label}`));
  return lines([head, plain(question.question), ...options]);
}

function questionButtons(id: string, question: Question, picked: Set<number>, multi: boolean): Button[][] {
  const rows = question.options.map((option, index) => [
    ANSWER.button(`${multi ? (picked.has(index) ? '☑️ ' : '⬜ ') : ''}${truncate(option.label, 48)}`, { id, choice: String(index) }),
  ]);
  const last = [ANSWER.button('✏️ Other', { id, choice: 'other' })];
  if (multi) last.push(ANSWER.button('✅ Done', { id, choice: 'done' }));
  return [...rows, last];
}
