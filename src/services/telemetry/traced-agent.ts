import { ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Attributes, type Context, type Span } from '@opentelemetry/api';
import type { AgentEvent, Usage } from '../../kernel/protocols/events.ts';
import type { TurnOutcome } from '../../engine/session/running-turn.ts';
import { failureOf, providerOf, shortName } from './trace-attributes.ts';

/** The tracer the bridge's own spans come from (the instrumentation scope a collector shows). */
export const TRACER_NAME = 'jsonl-bridge';

/** One piece of an agent's work, as its spans name it: never what was said, only who, which and how many. */
export interface AgentWork {
  /** A chat's turn, or a subagent run. */
  work: 'turn' | 'run';
  /** The CLI, by the name of its adapter, and whose models it runs where its manifest says (`provider`). */
  cli: string;
  provider?: string | undefined;
  /** The model asked for, when one is. */
  model?: string;
  /** The CLI's session it continues, when known. */
  conversationId?: string;
  /** What finds the work again in the bridge's logs and records. */
  ids: { chat?: string; turn?: string; run?: string };
  /** The trace it joins (a run's context from the bridge, on a worker); none: a trace of its own. */
  parent?: Context;
}

/**
 * The spans of one agent's work, fed the CLI's events as they come: the work's own span
 * (`invoke_agent {cli}`, or a worker's `process {queue}` of a run), a child span per tool call
 * (`execute_tool {tool}`, nested under the call it ran inside of), events for what happened to
 * it (steered, interrupted), its outcome with the GenAI conventions' names, and the delivery of
 * its answer. Without a tracer provider (no OTEL_EXPORTER_OTLP_ENDPOINT) every span is the
 * API's no-op, and the events are dropped at the first check.
 */
export class AgentSpans {
  private readonly span: Span;
  private readonly tools = new Map<string, Span>();
  private readonly usage = new Map<string, Usage>();
  private toolCalls = 0;
  /** Whether its tool calls are spans of its own (not where another span has them). */
  private toolSpans = true;
  private resultUsage: Usage | undefined;
  private ended = false;

  private constructor(name: string, kind: SpanKind, attributes: Attributes, parent: Context | undefined) {
    this.span = trace.getTracer(TRACER_NAME).startSpan(name, { kind, attributes }, parent ?? ROOT_CONTEXT);
  }

  /** The agent at work for a turn or a run: the root of its trace (or a child of `parent`). */
  static invoke(work: AgentWork): AgentSpans {
    return new AgentSpans(`invoke_agent ${shortName(work.cli)}`, SpanKind.INTERNAL, agentAttributes(work), work.parent);
  }

  /**
   * A turn of a session a worker holds (a run's), in the bridge's trace: its worker, model and
   * outcome. Its tool calls are the bridge's span's children, made from the same events there.
   */
  static process(work: AgentWork, worker: string): AgentSpans {
    const spans = new AgentSpans(
      'process sessions',
      SpanKind.CONSUMER,
      {
        ...agentAttributes(work),
        'messaging.system': 'jsonl_bridge',
        'messaging.operation.type': 'process',
        'messaging.destination.name': 'sessions',
        ...(work.ids.run ? { 'messaging.message.id': work.ids.run } : {}),
        'jsonl_bridge.worker': shortName(worker),
      },
      work.parent,
    );
    spans.toolSpans = false;
    return spans;
  }

  /** The context its children (and a worker's spans, through the turn sent there) join. */
  get context(): Context {
    return trace.setSpan(ROOT_CONTEXT, this.span);
  }

  private get recording(): boolean {
    return !this.ended && this.span.isRecording();
  }

  /** One of the CLI's events, as decoded. */
  observe(event: AgentEvent): void {
    if (!this.recording) return;
    switch (event.type) {
      case 'started':
        this.conversation(event.sessionId);
        if (event.model) this.span.setAttribute('gen_ai.response.model', shortName(event.model));
        return;
      case 'usage':
        // Claude Code's `<synthetic>` is a message it wrote itself, not a model's.
        if (event.model && event.model !== '<synthetic>') this.span.setAttribute('gen_ai.response.model', shortName(event.model));
        this.usage.set(event.messageId ?? String(this.usage.size), event.usage);
        return;
      case 'tool_start': {
        this.toolCalls++;
        if (!this.toolSpans) return;
        const parent = (event.parentId && this.tools.get(event.parentId)) || this.span;
        const tool = trace.getTracer(TRACER_NAME).startSpan(
          `execute_tool ${shortName(event.name)}`,
          {
            kind: SpanKind.INTERNAL,
            attributes: { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': shortName(event.name), 'gen_ai.tool.call.id': shortName(event.id) },
          },
          trace.setSpan(ROOT_CONTEXT, parent),
        );
        this.tools.get(event.id)?.end();
        this.tools.set(event.id, tool);
        return;
      }
      case 'tool_end': {
        const tool = this.tools.get(event.id);
        if (!tool) return;
        if (event.isError) {
          tool.setAttribute('error.type', 'tool_error');
          tool.setStatus({ code: SpanStatusCode.ERROR, message: 'the tool reported an error' });
        }
        tool.end();
        this.tools.delete(event.id);
        return;
      }
      case 'permission': {
        const about = (event.toolUseId && this.tools.get(event.toolUseId)) || this.span;
        about.addEvent('permission asked', { 'gen_ai.tool.name': shortName(event.tool) });
        return;
      }
      case 'result':
        this.resultUsage = event.usage ?? this.resultUsage;
        if (event.sessionId) this.conversation(event.sessionId);
        if (event.costUsd !== undefined) this.span.setAttribute('jsonl_bridge.cost_usd', event.costUsd);
        return;
      default:
        return;
    }
  }

  /** The CLI named its session: the conversation this work continues. */
  conversation(sessionId: string): void {
    if (this.recording) this.span.setAttribute('gen_ai.conversation.id', shortName(sessionId));
  }

  /** Something happened to the work as it ran: a message steered into it, an interrupt, its CLI taking it up. */
  note(event: 'steered' | 'interrupted' | 'started' | 'handed over'): void {
    if (this.recording) this.span.addEvent(event);
  }

  /** How the work ended: its outcome, tokens and cost; an error status with a short reason when it did not complete (never the CLI's own words). */
  outcome(outcome: TurnOutcome): void {
    if (!this.recording) return;
    this.closeTools();
    const usage = this.resultUsage ?? outcome.result?.usage ?? sumOf(this.usage.values());
    this.span.setAttributes({
      'jsonl_bridge.outcome': outcome.status,
      'jsonl_bridge.tool_calls': this.toolCalls,
      ...(usage ? { 'gen_ai.usage.input_tokens': usage.inputTokens, 'gen_ai.usage.output_tokens': usage.outputTokens } : {}),
      ...(outcome.result?.costUsd !== undefined ? { 'jsonl_bridge.cost_usd': outcome.result.costUsd } : {}),
      ...(outcome.sessionId ? { 'gen_ai.conversation.id': shortName(outcome.sessionId) } : {}),
    });
    const failure = failureOf(outcome);
    if (failure) this.failed(failure.type, failure.reason);
  }

  /** The work ended without an outcome of its CLI's (it could not start, its worker died): why, in a few words of the bridge's. */
  failed(type: string, reason: string, outcome?: 'failed' | 'interrupted'): void {
    if (!this.recording) return;
    this.closeTools();
    if (outcome) this.span.setAttribute('jsonl_bridge.outcome', outcome);
    this.span.setAttribute('error.type', type);
    this.span.setStatus({ code: SpanStatusCode.ERROR, message: reason });
  }

  /** The answer going to the chat app, as a child span naming the transport; a failure to send is its error. */
  async delivering<T>(transport: string, send: () => Promise<T>): Promise<T> {
    return this.recording ? traceDelivery(this.context, transport, send) : send();
  }

  /** Ends the work's span (once); its tool calls still open end with it. */
  end(): void {
    if (this.ended) return;
    this.closeTools();
    this.ended = true;
    this.span.end();
  }

  /** Tool calls the CLI never finished (stopped, crashed): they end with the work. */
  private closeTools(): void {
    for (const tool of this.tools.values()) {
      tool.setAttribute('jsonl_bridge.outcome', 'unfinished');
      tool.end();
    }
    this.tools.clear();
  }
}

/**
 * An answer going to the chat app (`deliver answer`, naming the transport) in the trace of the
 * work it answers (`parent`; none: not traced, and it costs nothing); a failure to send is its error.
 */
export async function traceDelivery<T>(parent: Context | undefined, transport: string, send: () => Promise<T>): Promise<T> {
  if (!parent) return send();
  const span = trace
    .getTracer(TRACER_NAME)
    .startSpan('deliver answer', { kind: SpanKind.INTERNAL, attributes: { 'jsonl_bridge.transport': shortName(transport) } }, parent);
  try {
    return await send();
  } catch (error) {
    span.setAttribute('error.type', 'send_failed');
    span.setStatus({ code: SpanStatusCode.ERROR, message: 'sending to the chat app failed' });
    throw error;
  } finally {
    span.end();
  }
}

function agentAttributes(work: AgentWork): Attributes {
  const provider = providerOf(work.model, work.provider);
  return {
    'gen_ai.operation.name': 'invoke_agent',
    'gen_ai.agent.name': shortName(work.cli),
    ...(provider ? { 'gen_ai.provider.name': provider, 'gen_ai.system': provider } : {}),
    ...(work.model ? { 'gen_ai.request.model': shortName(work.model) } : {}),
    ...(work.conversationId ? { 'gen_ai.conversation.id': shortName(work.conversationId) } : {}),
    'jsonl_bridge.work': work.work,
    ...(work.ids.chat ? { 'jsonl_bridge.chat': shortName(work.ids.chat) } : {}),
    ...(work.ids.turn ? { 'jsonl_bridge.turn.id': shortName(work.ids.turn) } : {}),
    ...(work.ids.run ? { 'jsonl_bridge.run.id': shortName(work.ids.run) } : {}),
  };
}

/** The usage of each model call, together (a CLI whose result says none). */
function sumOf(calls: Iterable<Usage>): Usage | undefined {
  let total: Usage | undefined;
  for (const usage of calls)
    total = { inputTokens: (total?.inputTokens ?? 0) + usage.inputTokens, outputTokens: (total?.outputTokens ?? 0) + usage.outputTokens };
  return total;
}
