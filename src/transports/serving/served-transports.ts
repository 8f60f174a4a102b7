import { ConfigError } from '../../kernel/errors/config-error.ts';
import type { Log } from '../../kernel/log/logger.ts';
import type { ChatMembers } from '../../kernel/ports/chat-members.ts';
import {
  TransportRefusedError,
  type InAppLogin,
  type Transport,
  type TransportHost,
  type TransportRoute,
  type TransportSources,
} from '../../kernel/ports/transport.ts';
import type { Downloads } from '../../kernel/ports/chat.ts';
import type { KnownTransport } from '../../kernel/known-transports.ts';
import { loadTransport } from './load.ts';
import { RoutedOutbound } from './routed-outbound.ts';

/**
 * The transports one bridge serves at once, as one: each chat's calls go to its own
 * transport, each transport's files, members and round trip are asked by id, and they start,
 * serve and stop together.
 */
export class ServedTransports {
  readonly out: RoutedOutbound;

  private constructor(
    readonly all: readonly Transport[],
    commands: readonly string[],
  ) {
    this.out = new RoutedOutbound(new Map(all.map((t) => [t.id, t.out])), new Set(commands));
  }

  /**
   * Loads and creates each chosen transport: a missing or wrong setting throws a ConfigError
   * naming it. `commands` are the bridge's, named in its texts as each app writes them.
   */
  static async create(chosen: readonly KnownTransport[], sources: TransportSources, commands: readonly string[] = []): Promise<ServedTransports> {
    const created: Transport[] = [];
    for (const known of chosen) created.push(await (await loadTransport(known)).create(sources));
    return new ServedTransports(created, commands);
  }

  get ids(): string[] {
    return this.all.map((t) => t.id);
  }

  get secrets(): string[] {
    return this.all.flatMap((t) => t.secrets);
  }

  /** The conversation is in this terminal (the console is among them). */
  get inTerminal(): boolean {
    return this.all.some((t) => t.inTerminal);
  }

  /** The transport whose one user is the owner at the keyboard, if one is served. */
  get everyoneIsOwner(): string | undefined {
    return this.all.find((t) => t.everyoneIsOwner)?.id;
  }

  /** The first chat app with an in-app page that logs people into the web pages. */
  get inApp(): { login: InAppLogin; transport: string } | undefined {
    const transport = this.all.find((t) => t.inApp);
    return transport?.inApp && { login: transport.inApp, transport: transport.id };
  }

  get members(): ReadonlyMap<string, ChatMembers> {
    return new Map(this.all.map((t) => [t.id, t.members]));
  }

  get downloads(): ReadonlyMap<string, Downloads> {
    return new Map(this.all.flatMap((t) => (t.downloads ? [[t.id, t.downloads] as const] : [])));
  }

  get roundTrips(): ReadonlyMap<string, () => Promise<number>> {
    return new Map(this.all.flatMap((t) => (t.roundTripMs ? [[t.id, t.roundTripMs] as const] : [])));
  }

  get routes(): TransportRoute[] {
    return this.all.flatMap((t) => t.routes ?? []);
  }

  /**
   * Reaches every service before anything is served, all at once (one waiting out its network
   * does not hold the others). A refusal or a data directory that cannot be written stops the
   * start: the first, naming its transport.
   */
  async connect(log: Log): Promise<void> {
    const outcomes = await Promise.allSettled(this.all.map((t) => t.connect(log.child({ transport: t.id }))));
    // Those that did connect let go again: the start stops, and nothing may keep the process alive.
    if (outcomes.some((outcome) => outcome.status === 'rejected')) await this.stop().catch(() => {});
    for (const [i, outcome] of outcomes.entries()) {
      if (outcome.status === 'fulfilled') continue;
      const error = outcome.reason as Error;
      const id = this.all[i]!.id;
      const named = (message: string) => (message.toLowerCase().includes(id) ? message : `${id}: ${message}`);
      if (error instanceof TransportRefusedError) throw new TransportRefusedError(named(error.message));
      if (error instanceof ConfigError) throw new ConfigError(named(error.message));
      throw error;
    }
  }

  /** Serves them all until stopped, or until one ends by itself (the console at the end of its input); a transport that fails fails the bridge. */
  async serve(host: TransportHost, log: Log): Promise<void> {
    await Promise.race(this.all.map((t) => t.serve(host, log.child({ transport: t.id }))));
  }

  async stop(): Promise<void> {
    await Promise.all(this.all.map((t) => t.stop()));
  }

  greet(bridge: Parameters<Transport['greet']>[0], log: Log): void {
    for (const t of this.all) t.greet(bridge, log);
  }
}
