import { join } from 'node:path';
import { PeopleSeen } from '../work/access/people-seen.ts';
import type { CommandServices } from '../chat/dispatch/command-services.ts';
import type { BridgeConfig } from './config.ts';
import { HOOKS_FILE } from '../services/hooks/hooks-file.ts';
import { wholeChatKey } from '../kernel/ports/chat.ts';
import type { WebLogins } from '../surfaces/web/auth/web-logins.ts';
import { webLinks } from '../surfaces/web/web-links.ts';
import type { ShareLinks } from '../surfaces/web/shares/share-links.ts';

/** What the commands work with beyond the chat's own session, from the parts built: the services as they are, and those made here. */
export function commandServices({
  config,
  web,
  roundTrips,
  ...services
}: Omit<CommandServices, 'web' | 'hooks' | 'health' | 'seen'> & {
  config: BridgeConfig;
  /** The web pages' sign-ins, when they are served; `inApp`: a chat app opens them signed in. */
  web: { sessions: WebLogins; shares: ShareLinks; inApp?: unknown } | undefined;
  roundTrips: ReadonlyMap<string, () => Promise<number>> | undefined;
}): CommandServices {
  return {
    ...services,
    ...(config.web && web ? { web: webLinks(config.web.url, web.sessions, web.shares, web.inApp !== undefined && config.web.url.startsWith('https:')) } : {}),
    seen: new PeopleSeen(),
    hooks: {
      forChat: (address) => config.hooks.filter((hook) => wholeChatKey(hook.chat) === wholeChatKey(address)),
      ...(config.web ? { url: config.web.url } : {}),
      file: join(config.dataDir, HOOKS_FILE),
    },
    health: {
      roundTrips,
      runs: () => ({ running: services.subagents.registry.runningTotal(), queued: services.subagents.registry.queuedTotal() }),
      dataDir: config.dataDir,
    },
  };
}
