import { unpricedReason } from '../engine/usage/cost-meter.ts';
import type { ChatAccess } from '../work/access/chat-access.ts';
import { ApiScopes } from '../surfaces/api/scopes.ts';
import type { Bot } from '../chat/bot.ts';
import { hookWork } from '../chat/triggers/hook-work.ts';
import type { BridgeConfig } from './config.ts';
import { DeliveryIds } from '../services/hooks/deliveries.ts';
import { hookRoutes, MAX_BODY_BYTES as HOOK_BODY_BYTES } from '../services/hooks/hook-routes.ts';
import { limitBody } from '../kernel/http/body-limit.ts';
import { ConfigError } from '../kernel/errors/config-error.ts';
import type { OrchestrationStore } from '../work/orchestration/orchestration-store.ts';
import type { Orchestrator } from '../work/orchestration/orchestrator.ts';
import type { InAppLogin, TransportHost, TransportRoute } from '../kernel/ports/transport.ts';
import type { RunReview } from '../work/subagents/run-review.ts';
import type { RunStore } from '../work/subagents/run-store.ts';
import type { Subagents } from '../work/subagents/subagents.ts';
import type { UsageLedger } from '../engine/usage/usage-ledger.ts';
import type { WebLogins } from '../surfaces/web/auth/web-logins.ts';
import { WEB } from '../surfaces/web/chat/web-chat.ts';
import type { WebOutbound } from '../surfaces/web/chat/web-outbound.ts';
import { startWebServer } from '../surfaces/web/web-server.ts';
import type { ShareLinks } from '../surfaces/web/shares/share-links.ts';
import type { Conversations } from '../work/transcripts/conversations.ts';
import { mountMetrics, type Scrape } from '../services/telemetry/metrics-route.ts';
import type { CommonParts } from './parts.ts';

/** The parts of the bridge its surfaces (the API, the web server and its hooks) serve: built by `create-app.ts`, handed over whole. */
export interface SurfaceParts extends CommonParts {
  bot: Bot;
  host: TransportHost;
  subagents: Subagents;
  orchestrator: Orchestrator;
  runStore: RunStore;
  orchestrationStore: OrchestrationStore;
  /** What each person of the web pages may see and answer. */
  access: ChatAccess;
  ledger: UsageLedger;
  review: RunReview;
  /** The web pages' sessions and chats, when BRIDGE_WEB_ADDR is set; and the chat app's in-app login, where it has one. */
  web?: { sessions: WebLogins; shares: ShareLinks; outbound: WebOutbound; inApp?: { login: InAppLogin; transport: string } };
  /** Endpoints the transports' services call, beside the webhooks. */
  routes: readonly TransportRoute[];
  /** The chats' sessions and runs as conversations, for the share links' pages. */
  conversations: Conversations;
  /** The metrics as Prometheus text, served at `/metrics`; none: not served. */
  scrapeMetrics?: Scrape;
}

/**
 * What the bridge serves beyond its transport, started after everything is built: the API
 * (SubagentService and ChatService, BRIDGE_API_ADDR) and the web server (dashboard, chat
 * pages and webhooks, BRIDGE_WEB_ADDR). Returns how to close them.
 */
export async function startSurfaces(parts: SurfaceParts): Promise<{ close(): Promise<void> }> {
  const api = parts.config.api ? await startApi(parts) : undefined;
  const web = await startWeb(parts);
  return {
    async close() {
      await api?.close();
      await web?.close();
    },
  };
}

async function startApi(parts: SurfaceParts): Promise<{ close(): Promise<void> }> {
  const { config, log } = parts;
  const apiConfig = config.api!;
  // gRPC is loaded only when the API is served: a bridge without it starts without it.
  const { startApiServer } = await import('../surfaces/api/api-server.ts');
  const api = await startApiServer(apiConfig, parts);
  for (const client of ApiScopes.unscoped(apiConfig)) log.warn(unscopedWarning(client, config));
  const clients = apiConfig.tokens.length;
  log.info(`SubagentService listening on ${api.address}${apiConfig.tls ? ' (TLS)' : ''}, ${clients} client${clients === 1 ? '' : 's'}; ChatService beside it`);
  return api;
}

/** Exactly what a client no scope names can do: it is easy to give a token and forget it can start work. */
function unscopedWarning(client: string, config: BridgeConfig): string {
  const where = `working in ${config.projectRoots.join(', ')} or below`;
  const what =
    config.api!.noChatMode === 'bypass'
      ? `in bypass mode (BRIDGE_API_NO_CHAT_MODE=bypass), ${where}: they run any command and write any file the agents' user may, asking nobody`
      : `in safe mode, ${where}: their tools only read, and change nothing (BRIDGE_API_NO_CHAT_MODE=bypass would let them run any tool)`;
  return `API client "${client}" is in no scope of BRIDGE_API_SCOPES: it reaches only the runs started with no chat, and it can start such runs and plans ${what}`;
}

async function startWeb(parts: SurfaceParts): Promise<{ close(): Promise<void> } | undefined> {
  const { config, log, bot } = parts;
  const { hooks } = config;
  if (!config.web || !parts.web) {
    if (parts.routes.length)
      throw new ConfigError(`${parts.routes.map((route) => route.path).join(', ')} must be served on the web server: set BRIDGE_WEB_ADDR`);
    if (hooks.length) log.warn(`${hooks.length} webhook${hooks.length === 1 ? '' : 's'} in hooks.json, but BRIDGE_WEB_ADDR is not set: none can be reached`);
    return undefined;
  }
  const mountHooks = hookRoutes({
    hooks,
    deliveries: await DeliveryIds.open(config.dataDir),
    start: hookWork({
      bot,
      spawner: parts.subagents.spawner,
      log,
      unpriced: (cli, model) => unpricedReason(config, cli, model),
    }),
    audit: parts.audit,
    log,
  });
  const web = await startWebServer({
    ...parts,
    ...parts.web,
    config: config.web,
    // A web user is who their chat app vouched for: the one allowlist decides, on every call.
    allowed: (identity) => bot.allowlist.isAllowedAnywhere(identity),
    runs: parts.runStore,
    orchestrations: parts.orchestrationStore,
    chats: bot.chats,
    registry: parts.subagents.registry,
    isAdmin: (identity) => bot.allowlist.roleOf({ transport: WEB, chat: '-' }, { id: '-', identity }) === 'admin',
    // Webhooks share the server and none of its sessions: each delivery is signed with its hook's secret.
    extra: (app) => {
      mountHooks(app);
      if (parts.scrapeMetrics) mountMetrics(app, parts.scrapeMetrics, config.metrics.token);
      // A chat app's own calls, each under the webhooks' limit and signed by that app (its transport checks).
      for (const route of parts.routes) app.on(route.method, route.path, limitBody(HOOK_BODY_BYTES), (c) => route.handle(c.req.raw));
    },
  });
  log.info(`dashboard on ${config.web.url} (listening on ${web.address}${config.web.tls ? ', TLS' : ''})`);
  if (parts.scrapeMetrics && !config.metrics.disabled)
    log.info(
      `metrics on ${config.web.url}/metrics (to this machine${config.metrics.token ? ', and to others with BRIDGE_METRICS_TOKEN' : ' only: set BRIDGE_METRICS_TOKEN to let others scrape'})`,
    );
  if (hooks.length) log.info(`webhooks: ${hooks.map((hook) => `${config.web!.url}/hooks/${hook.name}`).join(', ')}`);
  return web;
}
