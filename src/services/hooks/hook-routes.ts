import { webhookDelivered, type DeliveryDecision } from '../telemetry/metrics-webhooks.ts';
import type { Context, Hono } from 'hono';
import { peerOf } from '../../kernel/http/peer.ts';
import type { AuditLog } from '../../kernel/audit/audit-log.ts';
import type { Log } from '../../kernel/log/logger.ts';
import { chatKey } from '../../kernel/ports/chat.ts';
import type { DeliveryIds, DeliveryRecord } from './deliveries.ts';
import type { Hook } from './hooks-file.ts';
import { RateLimit } from './rate-limit.ts';
import { limitBody } from '../../kernel/http/body-limit.ts';
import { signedBy } from './signature.ts';
import { fillPrompt, matches } from './template.ts';

/** The largest body taken: past it, 413, while it still streams. */
export const MAX_BODY_BYTES = 1024 * 1024;

const BEARER_REFUSED = 'Authorization: Bearer is missing or wrong.';

/** What a hook's delivery started: a turn of its chat's session, a run, or nothing, and why. */
export type HookStarted = { turn: string } | { run: string } | { refused: string };

export interface HookRoutesParts {
  hooks: readonly Hook[];
  deliveries: DeliveryIds;
  /** Starts the hook's work with its filled prompt. */
  start: (hook: Hook, prompt: string) => Promise<HookStarted>;
  audit: Pick<AuditLog, 'record'>;
  log: Log;
}

/** How one delivery ended, for the audit log and the bridge's log: never a secret or a header. */
interface Outcome {
  status: number;
  decision: DeliveryDecision;
  reason?: string;
  delivery?: string;
  started?: Omit<DeliveryRecord, 'at' | 'delivery'>;
}

/**
 * `POST /hooks/<name>`, outside every web session: an unknown hook is 404, a body past 1 MB
 * 413 (cut off as it streams), a bad or missing signature 401, past the hook's `perMinute`
 * 429, a body that is not JSON 400; GitHub's ping, and a body not matching the hook's `when`,
 * are 200 and start nothing; a `github` hook's delivery without `X-GitHub-Delivery` is 400; a
 * delivery id, or a GitHub-signed body, seen within 7 days is 200 naming the first delivery and
 * what it started; otherwise its work starts, 202 with the turn or run. Every delivery goes
 * into the audit log.
 */
export function hookRoutes(parts: HookRoutesParts): (app: Hono) => void {
  const byName = new Map(parts.hooks.map((hook) => [hook.name, hook]));
  const limit = new RateLimit();
  const { audit, log } = parts;

  const record = (c: Context, hook: Hook | undefined, name: string, outcome: Outcome) => {
    webhookDelivered(outcome.status, outcome.decision);
    const from = peerOf(c);
    const what = [
      `${outcome.status}`,
      outcome.reason,
      outcome.started?.turn !== undefined && `turn ${outcome.started.turn || '(after the restart)'}`,
      outcome.started?.run && `run ${outcome.started.run}`,
      outcome.delivery && `delivery ${outcome.delivery}`,
      from && `from ${from}`,
    ]
      .filter(Boolean)
      .join(', ');
    void audit.record({
      event: 'hook',
      chat: hook ? chatKey(hook.chat) : '-',
      hook: name,
      status: outcome.status,
      decision: outcome.decision,
      by: `hook ${name}`,
      detail: what,
      delivery: outcome.delivery,
      runId: outcome.started?.run,
      turnId: outcome.started?.turn,
    });
    const line = `webhook ${name}: ${what}`;
    if (outcome.decision === 'refused') log.warn({ hook: name }, line);
    else log.info({ hook: name, ...(hook ? { chat: chatKey(hook.chat) } : {}) }, line);
  };
  const refuse = (
    c: Context,
    hook: Hook | undefined,
    name: string,
    status: 400 | 401 | 404 | 413 | 429 | 503,
    reason: string,
    headers?: Record<string, string>,
  ) => {
    record(c, hook, name, { status, decision: 'refused', reason });
    return c.json({ error: reason }, status, headers);
  };

  return (app) => {
    app.post(
      '/hooks/:name',
      // Unknown before anything is read: nobody's body is taken for a hook that is not there,
      // nor for a bearer hook without its secret (a GitHub signature needs the body).
      async (c, next) => {
        const name = c.req.param('name');
        const hook = byName.get(name);
        if (!hook) return refuse(c, undefined, printable(name), 404, 'No such hook.');
        if (hook.signature === 'bearer' && !signedBy(hook, new Uint8Array(), { authorization: c.req.header('authorization') }))
          return refuse(c, hook, name, 401, BEARER_REFUSED);
        await next();
      },
      limitBody(MAX_BODY_BYTES, (c, message) => {
        const name = c.req.param('name')!;
        return refuse(c, byName.get(name), name, 413, message);
      }),
      async (c) => {
        const name = c.req.param('name');
        const hook = byName.get(name)!;
        const body = new Uint8Array(await c.req.arrayBuffer());
        const signed = signedBy(hook, body, { hubSignature: c.req.header('x-hub-signature-256'), authorization: c.req.header('authorization') });
        if (!signed)
          return refuse(c, hook, name, 401, hook.signature === 'github' ? 'X-Hub-Signature-256 is missing or does not match the body.' : BEARER_REFUSED);
        const limited = limit.take(name, hook.perMinute);
        if (!limited.ok)
          return refuse(c, hook, name, 429, `More than ${hook.perMinute} deliveries a minute.`, { 'Retry-After': String(limited.retryAfterSeconds) });
        // GitHub names every delivery; a bearer sender may (Idempotency-Key), and two alerts alike without one are two alerts.
        const written =
          hook.signature === 'github' ? c.req.header('x-github-delivery') : (c.req.header('x-github-delivery') ?? c.req.header('idempotency-key'));
        if (written === undefined && hook.signature === 'github')
          return refuse(c, hook, name, 400, 'X-GitHub-Delivery is missing: a GitHub-signed delivery names itself, so that it is taken once.');
        if (written !== undefined && !/^[\x21-\x7e]{1,200}$/.test(written.trim()))
          return refuse(c, hook, name, 400, 'The delivery id (X-GitHub-Delivery or Idempotency-Key) is not 1 to 200 printable characters.');
        const delivery = written?.trim();
        let json: unknown;
        try {
          json = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(body));
        } catch {
          const form = /x-www-form-urlencoded/i.test(c.req.header('content-type') ?? '');
          return refuse(c, hook, name, 400, form ? 'The body is a form: send it as JSON (GitHub: Content type application/json).' : 'The body is not JSON.');
        }
        // GitHub's ping when a webhook is made, and events the hook has no use for: answered, and nothing starts.
        if (c.req.header('x-github-event') === 'ping' || !matches(hook.when, json)) {
          const ping = c.req.header('x-github-event') === 'ping';
          record(c, hook, name, { status: 200, decision: 'ignored', reason: ping ? 'a ping' : 'not what the hook is for (when)' });
          return c.json({ ignored: true, ...(ping ? { ping: true } : {}) }, 200);
        }
        // A signed body is the same delivery under any id: its signature holds for whoever replays it.
        const claim =
          delivery === undefined ? undefined : await parts.deliveries.claim(name, { id: delivery, ...(hook.signature === 'github' ? { body } : {}) });
        if (claim && !claim.first) {
          const { at: _at, delivery: first, ...started } = claim.record;
          const reason = first && first !== delivery ? `the body of delivery ${first}` : undefined;
          record(c, hook, name, { status: 200, decision: 'duplicate', delivery: delivery!, started, ...(reason ? { reason } : {}) });
          return c.json({ duplicate: true, ...(first ? { delivery: first } : {}), ...shown(started) }, 200);
        }
        let result: HookStarted;
        try {
          result = await parts.start(hook, fillPrompt(name, hook.prompt, json));
        } catch (error) {
          await claim?.release();
          throw error;
        }
        if ('refused' in result) {
          await claim?.release();
          return refuse(c, hook, name, 503, result.refused);
        }
        await claim?.done(result);
        record(c, hook, name, { status: 202, decision: 'accepted', started: result, ...(delivery ? { delivery } : {}) });
        return c.json(shown(result), 202);
      },
    );
    app.all('/hooks/:name', (c) => c.json({ error: 'Deliveries are POSTed.' }, 405, { Allow: 'POST' }));
  };
}

/** What the sender is told it started: a turn kept for after a restart has no id yet. */
function shown(started: Omit<DeliveryRecord, 'at' | 'delivery'>): Record<string, string | null> {
  if (started.run) return { run: started.run };
  return { turn: started.turn || null };
}

/** A name from the URL as the audit log may hold it: whoever sends writes it. */
function printable(name: string): string {
  return name.replace(/[^\x21-\x7e]/g, '?').slice(0, 64);
}
