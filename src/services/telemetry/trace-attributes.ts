import type { TurnOutcome } from '../../engine/session/running-turn.ts';

/** Names, ids and models are cut to this: an attribute is something to find and group by, never a text. */
const MAX_NAME_CHARS = 100;

export function shortName(value: string): string {
  return value.length > MAX_NAME_CHARS ? value.slice(0, MAX_NAME_CHARS) : value;
}

/**
 * Whose models the work runs on, as the GenAI conventions name providers: by the model's name
 * where it says (droid runs any vendor's), else as the CLI's manifest declares (`provider`).
 */
export function providerOf(model: string | undefined, declared?: string): string | undefined {
  const name = model ?? '';
  if (/^(claude|opus|sonnet|haiku)/i.test(name)) return 'anthropic';
  if (/^(gpt|o\d|codex|chatgpt)/i.test(name)) return 'openai';
  if (/^gemini/i.test(name)) return 'gcp.gemini';
  return declared;
}

/**
 * Why a turn or run did not complete, in the bridge's own few words (`error.type` and the
 * status's message): never the CLI's error or stderr, which may quote the prompt, a path or a
 * secret. Undefined when it completed, or was stopped (by someone, not a failure).
 */
export function failureOf(outcome: Pick<TurnOutcome, 'status' | 'exit' | 'result' | 'limit'>): { type: string; reason: string } | undefined {
  if (outcome.status === 'completed' || outcome.status === 'stopped') return undefined;
  if (outcome.status === 'timed_out') return { type: 'timeout', reason: 'timed out' };
  if (outcome.limit) return { type: 'quota_limit', reason: `the CLI's ${outcome.limit.kind} limit` };
  if (outcome.result?.isError) return { type: 'cli_error', reason: 'the CLI reported an error' };
  const { code, signal } = outcome.exit;
  if (signal) return { type: 'crash', reason: `the CLI was killed by ${shortName(signal)}` };
  if (code) return { type: 'crash', reason: `the CLI exited with code ${code}` };
  if (code === 0) return { type: 'no_result', reason: 'the CLI exited without a result' };
  return { type: 'not_run', reason: 'the CLI did not run' };
}
