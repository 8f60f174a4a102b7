import { truncate } from '../presentation/format/index.ts';
import { bold, italic, lines, pre } from '../../kernel/rich/index.ts';
import { ButtonKind } from '../../kernel/ports/buttons.ts';
import type { Button, RichText } from '../../kernel/ports/chat.ts';
import { describeRule, type ApprovalRule } from '../../kernel/policy/approval-rules.ts';
import type { Asker } from './asker.ts';

// How a question about a tool call looks in the chat: its text, its buttons, and what it says once decided; and how
// any question put to a chat (a tool call's, a host's, the agent's own) is waited for.

/**
 * A kind of question button: which question (`id`) and which of `choices` was pressed,
 * `<kind>:<id>:<choice>`; anything else does not decode.
 */
export function choiceButton<C extends string>(kind: string, choices: readonly C[]): ButtonKind<{ id: string; choice: C }> {
  return new ButtonKind(kind, {
    encode: ({ id, choice }) => `${id}:${choice}`,
    decode: (raw) => {
      const [id = '', choice = '', ...rest] = raw.split(':');
      return /^[\w-]{1,40}$/.test(id) && choices.includes(choice as C) && !rest.length ? { id, choice: choice as C } : undefined;
    },
  });
}

/**
 * What someone answers, once `listen` is given the way to settle it; 'ended' when `signal`
 * aborts first (the turn ended, the connection closed), 'timeout' when nobody answers in time.
 */
export function awaitAnswer<T>(
  timeoutMs: number,
  signal: AbortSignal | undefined,
  listen: (settle: (value: T | 'ended' | 'timeout') => void) => void,
): Promise<T | 'ended' | 'timeout'> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => done('timeout'), timeoutMs);
    const onAbort = () => done('ended');
    function done(value: T | 'ended' | 'timeout') {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      resolve(value);
    }
    if (signal?.aborted) return done('ended');
    signal?.addEventListener('abort', onAbort);
    listen(done);
  });
}

/** A question's buttons: Allow, Deny, or Allow the tool for the asker's lifetime. */
export const QUESTION = choiceButton('ap', ['allow', 'deny', 'always']);
export type QuestionAnswer = Parameters<typeof QUESTION.button>[1];

/** The call as the chat sees it before deciding: the whole input, or where to find it. */
function describeCall(input: string, asFile: boolean): string {
  return asFile ? `Its whole input (${input.length.toLocaleString('en-US')} characters) is in the file above.` : input;
}

export function questionText(asker: Asker, tool: string, input: string, asFile: boolean, timeoutMs: number, rule?: ApprovalRule): RichText {
  const head = `🔐 ${asker.title} asks to use ${tool}`;
  const call = describeCall(input, asFile);
  const minutes = Math.round(timeoutMs / 60_000) || 1;
  if (!rule) return lines([bold(head), pre(call), italic(`No answer within ${minutes} min means deny.`)]);
  const needs = `Needs ${rule.approvals} people's Allow (tool policy: ${describeRule(rule)}); whoever started this work cannot be the last of them. A Deny by anyone ends it.`;
  return lines([bold(head), pre(call), needs, italic(`Fewer than ${rule.approvals} within ${minutes} min means deny.`)]);
}

/** A question's buttons: Allow and Deny, and "Allow <tool> for this …" where a grant may be given (never under a rule needing several people). */
export function questionButtons(id: string, asker: Asker, tool: string, rule: ApprovalRule | undefined): Button[][] {
  return [
    [QUESTION.button('✅ Allow', { id, choice: 'allow' }), QUESTION.button('⛔ Deny', { id, choice: 'deny' })],
    ...(asker.grantHolder && !rule ? [[QUESTION.button(`✅ Allow ${truncate(tool, 32)} for this ${asker.lifetime}`, { id, choice: 'always' })]] : []),
  ];
}

/** `1 of 2 approved: Ada`, or `none of 2 approved`. */
export function approvalCount(pending: { rule?: ApprovalRule | undefined; approvedBy: readonly { name: string }[] }): string {
  const needed = pending.rule?.approvals ?? 1;
  const names = pending.approvedBy.map((approval) => approval.name);
  return names.length ? `${names.length} of ${needed} approved: ${names.join(', ')}` : `none of ${needed} approved`;
}

export function decidedText(asker: Asker, tool: string, input: string, asFile: boolean, verdict: string): RichText {
  const head = `${asker.title}: ${tool}`;
  const call = describeCall(input, asFile);
  return lines([bold(head), pre(call), verdict]);
}
