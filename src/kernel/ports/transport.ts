import type { Log } from '../log/logger.ts';
import type { ChatMembers } from './chat-members.ts';
import type { CheckResult } from './check-result.ts';
import type { ButtonAnswer, ButtonPress, ChatRef, ChatUser, Downloads, IncomingMessage, Outbound } from './chat.ts';

/** What a transport feeds and asks: the bridge's entry points, and the wait for all work to end. */
export interface TransportHost {
  handleMessage(message: IncomingMessage): Promise<void>;
  handleButton(press: ButtonPress): Promise<ButtonAnswer>;
  isAllowed(chat: ChatRef, user: ChatUser): boolean;
  /** The commands, for a transport's command menu. */
  readonly commands: readonly { name: string; description: string }[];
  /** Resolves when nothing is running: no turn, no run, nothing to announce. */
  idle(): Promise<void>;
}

/** Where a transport's settings come from. */
export interface TransportSources {
  env: NodeJS.ProcessEnv;
  /** The bridge's data directory, for what the transport keeps (the console's saved documents). */
  dataDir: string;
}

/**
 * A chat app's in-app page: the app opens the web pages with launch data it signed, and the
 * transport checks it and says who opened them.
 */
export interface InAppLogin {
  /** Who the launch data says opened the page (their id on this transport), or why it is refused. */
  check(launchData: string): { ok: true; user: { id: string; name?: string } } | { ok: false; reason: string };
  /** The app's own web client frames the page: the sites allowed to. */
  frameAncestors: readonly string[];
}

/** An endpoint of the bridge's web server that a chat app's service calls. */
export interface TransportRoute {
  method: 'POST';
  path: string;
  handle(request: Request): Promise<Response>;
}

/**
 * A chat of a transport this bridge does not serve now (its settings were removed, or another
 * process serves it): what is owed to it waits, and goes once it is served again.
 */
export class TransportNotServedError extends Error {
  override name = 'TransportNotServedError';
  constructor(readonly transport: string) {
    super(`the ${transport} transport is not served`);
  }
}

/** The service a transport talks to refused it as configured (a bot token): nothing will work until that changes. */
export class TransportRefusedError extends Error {
  override name = 'TransportRefusedError';
}

/**
 * A chat transport, whole: its id (what its chats' ChatRefs carry), how its settings are read,
 * its lines of `npm run doctor`, and a running instance. The bridge serves several at once; a
 * new transport is its folder, its `transport.ts` exporting one of these as default, and a line
 * in `transports/index.ts`.
 */
export interface TransportKind {
  readonly id: string;
  /** Its lines of `npm run doctor`, from its settings as they are. */
  check(sources: TransportSources): Promise<CheckResult[]>;
  /** Reads its settings (a missing or wrong one throws a ConfigError naming the variable) and opens what it keeps. */
  create(sources: TransportSources): Transport | Promise<Transport>;
}

export interface Transport {
  readonly id: string;
  /** Whoever writes here is the owner (the console: the person at the keyboard), allowlist or not; none: a chat app's allowlist decides. */
  readonly everyoneIsOwner?: boolean;
  /** Its secrets (a bot token): redacted from everything printed. */
  readonly secrets: readonly string[];
  /** Its in-app page (a Mini App) logging people into the web pages; none: it has none. */
  readonly inApp?: InAppLogin;
  /** What the bridge sends through. */
  readonly out: Outbound;
  /** Who is in which of its chats: what the web pages show each person, and who may answer a chat's questions. */
  readonly members: ChatMembers;
  /** How files people send are fetched; none: they cannot be received. */
  readonly downloads?: Downloads;
  /** One round trip to its service, for /status; none where there is no service. */
  readonly roundTripMs?: () => Promise<number>;
  /**
   * Reaches its service before anything is served, waiting out a network that is not up yet; a
   * TransportRefusedError when the service refuses it, a ConfigError when what it keeps in the
   * data directory cannot be written.
   */
  connect(log: Log): Promise<void>;
  /** Feeds the host until stopped, or until it ends by itself (the console at the end of its input, once all work is done). */
  serve(host: TransportHost, log: Log): Promise<void>;
  /** Ends `serve`; one still starting then serves nothing (a signal can come while the bridge starts). */
  stop(): Promise<void>;
  /** The conversation is in this terminal: the log goes to a file, and only warnings and errors show. None: it is elsewhere. */
  readonly inTerminal?: boolean;
  /** HTTP endpoints its service calls (events pushed to a public URL), mounted on the bridge's web server under its body limits. */
  readonly routes?: readonly TransportRoute[];
  /** Says, once, that the bridge is up and where: a log line, or the console's greeting. */
  greet(bridge: BridgeGreeting, log: Log): void;
}

/** What a transport's greeting may tell of the bridge. */
export interface BridgeGreeting {
  clis: number;
  defaultCli: string;
  workdir: string;
  dataDir: string;
  logFile: string | undefined;
  /** Where people reach the web pages (BRIDGE_WEB_URL), when they are served. */
  webUrl: string | undefined;
  /** What a chat chose (`/cli`, `/cd`), kept across restarts; undefined: it has chosen nothing yet. */
  chosen: (chat: ChatRef) => { cli: string; workdir: string } | undefined;
}
