import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { OUTCOMES } from '../../src/services/telemetry/metrics-labels.ts';
import { INTERRUPTS } from '../../src/services/telemetry/metrics-sessions.ts';
import { TRANSPORTS } from '../../src/kernel/known-transports.ts';
import type { Sample } from './prometheus.ts';

const REPO = fileURLToPath(new URL('../../', import.meta.url));

/** The models a label may name: the shipped price table's entries, and `other`. */
const MODELS = [...Object.keys((JSON.parse(readFileSync(`${REPO}src/engine/usage/prices.json`, 'utf8')) as { models: object }).models), 'other'];
/** The CLIs of adapters/, and the tests' fake. */
const CLIS = [...readdirSync(`${REPO}adapters`).map((file) => file.replace(/\.json$/, '')), 'fake'];

/**
 * Every label a metric of the bridge may carry, and the fixed set its values come from: what
 * the metrics promise (no message's text, path, chat, person or secret; a bounded number of
 * series). A label not here, or a value outside its set, is a finding.
 */
const BOUNDED: Record<string, (value: string) => boolean> = {
  otel_scope_name: (v) => v === 'jsonl-bridge',
  le: (v) => v === '+Inf' || Number.isFinite(Number(v)),
  cli: (v) => CLIS.includes(v),
  gen_ai_request_model: (v) => MODELS.includes(v),
  gen_ai_provider_name: (v) => ['anthropic', 'openai', 'gcp.gemini', 'other'].includes(v),
  gen_ai_token_type: (v) => ['input', 'output'].includes(v),
  gen_ai_operation_name: (v) => v === 'invoke_agent',
  jsonl_bridge_work: (v) => ['turn', 'run'].includes(v),
  outcome: (v) => [...OUTCOMES, 'other', 'ok', 'rate_limited', 'error'].includes(v),
  transport: (v) => TRANSPORTS.some((t) => t.id === v) || ['console', 'web'].includes(v),
  state: (v) => ['busy', 'idle', 'waiting', 'active', 'delayed'].includes(v),
  reason: (v) => (INTERRUPTS as readonly string[]).includes(v),
  http_response_status_code: (v) => ['200', '202', '400', '401', '404', '405', '413', '429', '503'].includes(v),
  status_class: (v) => ['2xx', '4xx', '5xx'].includes(v),
  decision: (v) => ['accepted', 'duplicate', 'refused', 'ignored'].includes(v),
};

/** Labels of a scrape that break the promise, as `metric{label="value"}`; `target_info` (who exports: the resource) is left out. */
export function unboundedLabels(scraped: readonly Sample[]): string[] {
  const findings = new Set<string>();
  for (const sample of scraped) {
    if (sample.name === 'target_info') continue;
    for (const [label, value] of Object.entries(sample.labels)) {
      const allowed = BOUNDED[label];
      if (!allowed?.(value)) findings.add(`${sample.name}{${label}="${value}"}`);
    }
  }
  return [...findings];
}

/** The metric names a dashboard's queries use (a histogram's series named by its own name too). */
export function dashboardMetrics(dashboard: unknown): string[] {
  const exprs: string[] = [];
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (!node || typeof node !== 'object') return;
    for (const [key, value] of Object.entries(node)) {
      if ((key === 'expr' || key === 'query' || key === 'definition') && typeof value === 'string') exprs.push(value);
      else walk(value);
    }
  };
  walk(dashboard);
  const names = exprs.flatMap((expr) => [...expr.matchAll(/\b(jsonl_bridge_(?!work\b)\w+|gen_ai_client_\w+|target_info)\b/g)].map((m) => m[1]!));
  return [...new Set(names)];
}
