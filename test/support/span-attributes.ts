import type { AttributeValue, ReceivedSpan } from './otlp-collector.ts';

/**
 * What a span of the bridge may say, key by key: names, ids that are not secrets, counts,
 * models and outcomes, each of a bounded shape. A key not here, or a value not of its shape,
 * is a problem: that is how a message's text, a tool's input or output, a path or a secret
 * would get in.
 */
const oneOf =
  (...values: string[]) =>
  (value: AttributeValue) =>
    typeof value === 'string' && values.includes(value);
const shaped = (pattern: RegExp) => (value: AttributeValue) => typeof value === 'string' && pattern.test(value);
const count = (value: AttributeValue) => typeof value === 'number' && Number.isInteger(value) && value >= 0;
const amount = (value: AttributeValue) => typeof value === 'number' && value >= 0 && Number.isFinite(value);

/** An id: a turn's, a run's, a tool call's, a session's, a chat's (`transport:id`). */
const ID = shaped(/^[\w:.-]{1,100}$/);
/** A name: a CLI's, a tool's (`mcp__server__tool`), a model's, a transport's, a worker's. */
const NAME = shaped(/^[\w.:@-]{1,100}$/);
const PROVIDER = oneOf('anthropic', 'openai', 'gcp.gemini');
const OUTCOME = oneOf('completed', 'failed', 'stopped', 'timed_out', 'interrupted', 'unfinished');
const ERROR_TYPE = oneOf('timeout', 'quota_limit', 'cli_error', 'crash', 'no_result', 'not_run', 'interrupted', 'tool_error', 'send_failed');

export const SPAN_ATTRIBUTES: Record<string, (value: AttributeValue) => boolean> = {
  'gen_ai.operation.name': oneOf('invoke_agent', 'execute_tool'),
  'gen_ai.agent.name': NAME,
  'gen_ai.provider.name': PROVIDER,
  'gen_ai.system': PROVIDER,
  'gen_ai.request.model': NAME,
  'gen_ai.response.model': NAME,
  'gen_ai.usage.input_tokens': count,
  'gen_ai.usage.output_tokens': count,
  'gen_ai.conversation.id': ID,
  'gen_ai.tool.name': NAME,
  'gen_ai.tool.call.id': ID,
  'jsonl_bridge.work': oneOf('turn', 'run'),
  'jsonl_bridge.chat': ID,
  'jsonl_bridge.turn.id': ID,
  'jsonl_bridge.run.id': ID,
  'jsonl_bridge.outcome': OUTCOME,
  'jsonl_bridge.tool_calls': count,
  'jsonl_bridge.cost_usd': amount,
  'jsonl_bridge.transport': NAME,
  'jsonl_bridge.worker': NAME,
  'error.type': ERROR_TYPE,
  'messaging.system': oneOf('jsonl_bridge'),
  'messaging.operation.type': oneOf('process'),
  'messaging.destination.name': NAME,
  'messaging.message.id': ID,
};

const SPAN_NAMES = [/^invoke_agent [\w.-]+$/, /^execute_tool [\w.:@-]+$/, /^process [\w.:-]+$/, /^deliver answer$/];
const EVENT_NAMES = ['started', 'steered', 'interrupted', 'permission asked', 'handed over'];
const STATUS_MESSAGES = [
  /^timed out$/,
  /^the CLI's (usage|rate|credit) limit$/,
  /^the CLI reported an error$/,
  /^the CLI was killed by SIG[A-Z0-9]+$/,
  /^the CLI exited with code \d+$/,
  /^the CLI exited without a result$/,
  /^the CLI did not run$/,
  /^the tool reported an error$/,
  /^sending to the chat app failed$/,
  /^the run could not start$/,
  /^the run was cut off before it ended$/,
];
/** The resource says who sent the spans, and nothing of the host or the command line. */
const RESOURCE_KEYS = /^(service\.name|service\.instance\.id|service\.version|telemetry\.sdk\.\w+|deployment\.environment(\.name)?)$/;

/**
 * Every problem with what `spans` say: a span, event or attribute the bridge does not make,
 * a value not of its key's shape, a status message not among the bridge's own, or anything
 * containing one of `forbidden` (the prompt's words, a command, a path, a token).
 */
export function spanProblems(spans: ReceivedSpan[], forbidden: string[]): string[] {
  const problems: string[] = [];
  const check = (where: string, key: string, value: AttributeValue) => {
    const valid = SPAN_ATTRIBUTES[key];
    if (!valid) problems.push(`${where}: the attribute ${key} is not one the bridge may record`);
    else if (!valid(value)) problems.push(`${where}: ${key}=${JSON.stringify(value)} is not of its shape`);
  };
  for (const span of spans) {
    const where = `span ${span.name}`;
    if (!SPAN_NAMES.some((name) => name.test(span.name))) problems.push(`${where}: not a span name the bridge makes`);
    for (const [key, value] of Object.entries(span.attributes)) check(where, key, value);
    for (const event of span.events) {
      if (!EVENT_NAMES.includes(event.name)) problems.push(`${where}: the event ${event.name} is not one the bridge makes`);
      for (const [key, value] of Object.entries(event.attributes)) check(`${where}, event ${event.name}`, key, value);
    }
    if (span.status.message !== undefined && !STATUS_MESSAGES.some((message) => message.test(span.status.message!)))
      problems.push(`${where}: the status message ${JSON.stringify(span.status.message)} is not one of the bridge's own`);
    for (const key of Object.keys(span.resource))
      if (!RESOURCE_KEYS.test(key)) problems.push(`${where}: the resource attribute ${key} says more than who sent it`);
    const text = JSON.stringify(span);
    for (const secret of forbidden) if (text.includes(secret)) problems.push(`${where}: it holds ${JSON.stringify(secret)}`);
  }
  return problems;
}
