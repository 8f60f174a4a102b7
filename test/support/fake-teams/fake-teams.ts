import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { selfSignedCertificate } from '../certificate.ts';
import { ConversationLimits, shownCard, type BotAttachment, type BotMessage } from './conversations.ts';
import { readTeamsHtml } from './reading.ts';
import { SigningKey } from './signing.ts';

/** A bot's activity as Teams takes it, at most: past it, 413. */
const ACTIVITY_BYTES = 28 * 1024;
const FILE_DOWNLOAD_INFO = 'application/vnd.microsoft.teams.file.download.info';
/** The card that asks a person before a bot puts a file in their OneDrive, and the one that shows it there. */
const FILE_CONSENT_CARD = 'application/vnd.microsoft.teams.card.file.consent';
const FILE_INFO_CARD = 'application/vnd.microsoft.teams.card.file.info';

export interface TeamsPerson {
  aadObjectId: string;
  id: string;
  name: string;
}

/** One call of the bot to the connector, as the twin took it. */
export interface ConnectorCall {
  method: string;
  conversation: string;
  text?: string;
  time: number;
}

/**
 * Microsoft Teams as a bot meets it, over HTTPS (a self-signed certificate the bridge trusts
 * through NODE_EXTRA_CA_CERTS): Microsoft Entra's token endpoint for the app's client
 * credentials, the Bot Framework's OpenID metadata and signing keys, and the Bot Connector's
 * REST (send, reply, update, a member), with Teams' limits and errors: 401 without the app's
 * token, 403 in a conversation the bot is not in, 400 for an activity without a type, 413 past
 * 28 KB, 404 updating an activity that is not there, 429 with Retry-After past 7 calls a second
 * or 60 in 30 s in one conversation. A message is shown as Teams reads it: its HTML with
 * textFormat xml, a card's text block as the card's Markdown (reading.ts). People write by the
 * twin posting signed activities to the bot's messaging endpoint. A file consent card is taken
 * in a personal chat only; a person's answer comes to the bot as Teams' invoke, and an allowed
 * file is put at its upload URL (one range, as OneDrive's upload session takes it).
 */
export class FakeTeams {
  readonly appId = randomUUID();
  readonly appPassword = `secret~${randomUUID()}`;
  readonly tenantId = randomUUID();
  readonly key = new SigningKey();
  readonly messages: BotMessage[] = [];
  readonly calls: ConnectorCall[] = [];
  readonly people = new Map<string, TeamsPerson>();
  /** Conversations the bot is in (their ids without a reply chain's root). */
  readonly conversations = new Set<string>();
  private readonly tokens = new Set<string>();
  private readonly files = new Map<string, Buffer>();
  /** Upload sessions given with an allowed consent, by id: what each was to hold, and what it holds. */
  private readonly uploads = new Map<string, { name: string; bytes?: Buffer }>();
  private readonly limits = new ConversationLimits();
  private nextId = Date.now();
  /** Connector calls still to be answered 429 (Retry-After: 1), whatever the pace: a test's busy Teams. */
  private throttled = 0;
  /** 429s answered so far. */
  throttledCalls = 0;
  /** Where the bot's messaging endpoint is. */
  endpoint = '';

  private constructor(
    private readonly server: Server,
    readonly certFile: string,
  ) {}

  static async start(): Promise<FakeTeams> {
    const tls = await selfSignedCertificate();
    const [cert, key] = await Promise.all([readFile(tls.cert), readFile(tls.key)]);
    let teams: FakeTeams | undefined;
    const server = createServer({ cert, key }, (req, res) => void teams!.handle(req, res));
    teams = new FakeTeams(server, tls.cert);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return teams;
  }

  get url(): string {
    return `https://localhost:${(this.server.address() as AddressInfo).port}`;
  }

  get serviceUrl(): string {
    return `${this.url}/connector/`;
  }

  /** The bridge's settings pointing it at this twin. */
  env(): Record<string, string> {
    return {
      TEAMS_APP_ID: this.appId,
      TEAMS_APP_PASSWORD: this.appPassword,
      TEAMS_TENANT_ID: this.tenantId,
      TEAMS_LOGIN_URL: this.url,
      TEAMS_OPENID_URL: `${this.url}/botframework/openid`,
      NODE_EXTRA_CA_CERTS: this.certFile,
    };
  }

  addPerson(name: string): TeamsPerson {
    const person = { aadObjectId: randomUUID(), id: `29:${randomUUID()}`, name };
    this.people.set(person.aadObjectId, person);
    return person;
  }

  /** Answers the next `calls` sends and updates 429 with a Retry-After, as a busy Teams does. */
  throttle(calls: number): void {
    this.throttled = calls;
  }

  newId(): string {
    return String(++this.nextId);
  }

  /** Posts an activity to the bot, signed as the Bot Framework signs them; its HTTP status. */
  async deliver(activity: Record<string, unknown>, token = this.key.token({ aud: this.appId, serviceurl: this.serviceUrl })): Promise<number> {
    const conversation = activity.conversation as { id: string };
    this.conversations.add(conversation.id.split(';')[0]!);
    const response = await fetch(`${this.endpoint}/api/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ channelId: 'msteams', serviceUrl: this.serviceUrl, timestamp: new Date().toISOString(), ...activity }),
    });
    await response.arrayBuffer();
    return response.status;
  }

  /** A file someone shares, as Teams hands a bot one: a download URL of its own. */
  sharedFile(name: string, bytes: Buffer): Record<string, unknown> {
    const id = randomUUID();
    this.files.set(id, bytes);
    return { contentType: FILE_DOWNLOAD_INFO, name, content: { downloadUrl: `${this.url}/files/${id}`, uniqueId: id, fileType: name.split('.').pop() } };
  }

  /** A person's answer to a file consent card of `message` (Allow, or Decline), as Teams sends it to the bot: an invoke; its HTTP status. */
  async answerFileConsent(message: BotMessage, person: TeamsPerson, action: 'accept' | 'decline'): Promise<number> {
    const card = message.attachments.find((a) => a.contentType === FILE_CONSENT_CARD);
    if (!card) throw new Error('fake Teams: that message asks no file consent');
    const content = card.content as { acceptContext?: unknown; declineContext?: unknown };
    const id = randomUUID();
    const name = card.name ?? 'file';
    if (action === 'accept') this.uploads.set(id, { name });
    return this.deliver({
      type: 'invoke',
      name: 'fileConsent/invoke',
      id: this.newId(),
      from: { id: person.id, aadObjectId: person.aadObjectId, name: person.name },
      conversation: { id: message.conversation, tenantId: this.tenantId, conversationType: 'personal' },
      channelData: { tenant: { id: this.tenantId } },
      replyToId: message.id,
      value: {
        type: 'fileUpload',
        action,
        context: action === 'accept' ? content.acceptContext : content.declineContext,
        ...(action === 'accept'
          ? {
              uploadInfo: { name, uploadUrl: `${this.url}/upload/${id}`, contentUrl: `${this.url}/drive/${id}`, uniqueId: id, fileType: name.split('.').pop() },
            }
          : {}),
      },
    });
  }

  /** The bot's messages in a conversation (a reply chain's id: that chain), oldest first. */
  botMessages(conversation: string): BotMessage[] {
    return this.messages.filter((m) => m.conversation === conversation);
  }

  message(id: string): BotMessage | undefined {
    return this.messages.find((m) => m.id === id);
  }

  /** A message as a reader sees it: its text (its HTML rendered, a card's text block read), its buttons, its files. */
  shown(message: BotMessage): { text: string; buttons: string[]; files: { name: string; bytes: Buffer }[] } {
    const cards = message.attachments.filter((a) => a.contentType === 'application/vnd.microsoft.card.adaptive').map(shownCard);
    const inline = message.attachments.filter((a) => a.contentUrl?.startsWith('data:'));
    // A file the bot put in someone's OneDrive, shown by its card.
    const uploaded = message.attachments.filter((a) => a.contentType === FILE_INFO_CARD);
    return {
      text: [message.textFormat === 'xml' ? readTeamsHtml(message.text).text : message.text, ...cards.map((c) => c.text)].filter(Boolean).join('\n'),
      buttons: cards.flatMap((c) => c.actions.map((a) => a.title)),
      files: [
        ...inline.map((f) => ({ name: f.name ?? '', bytes: Buffer.from(f.contentUrl!.slice(f.contentUrl!.indexOf(',') + 1), 'base64') })),
        ...uploaded.map((f) => ({
          name: f.name ?? '',
          bytes: this.uploads.get((f.content as { uniqueId?: string }).uniqueId ?? '')?.bytes ?? Buffer.alloc(0),
        })),
      ],
    };
  }

  /** A card message's buttons, with the data each carries back. */
  shownCardActions(message: BotMessage): { title: string; data?: unknown }[] {
    return message.attachments.filter((a) => a.contentType === 'application/vnd.microsoft.card.adaptive').flatMap((a) => shownCard(a).actions);
  }

  async waitFor<T>(probe: () => T | undefined | false | Promise<T | undefined | false>, timeoutMs = 20_000): Promise<T> {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const found = await probe();
      if (found) return found;
      if (Date.now() > until) throw new Error(`fake Teams: nothing came within ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks);
    const path = new URL(req.url ?? '/', this.url).pathname;
    const answer = (status: number, body?: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(body === undefined ? '' : JSON.stringify(body));
    };
    if (req.method === 'GET' && path === '/botframework/openid')
      return answer(200, {
        issuer: 'https://api.botframework.com',
        jwks_uri: `${this.url}/botframework/keys`,
        id_token_signing_alg_values_supported: ['RS256'],
      });
    if (req.method === 'GET' && path === '/botframework/keys') return answer(200, this.key.jwks());
    if (req.method === 'GET' && path.startsWith('/files/')) {
      const bytes = this.files.get(path.slice('/files/'.length));
      if (!bytes) return answer(404);
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      return void res.end(bytes);
    }
    if (req.method === 'PUT' && path.startsWith('/upload/')) {
      const upload = this.uploads.get(path.slice('/upload/'.length));
      if (!upload) return answer(404, { error: { code: 'itemNotFound', message: 'The upload session was not found.' } });
      const range = /^bytes 0-(\d+)\/(\d+)$/.exec(String(req.headers['content-range'] ?? ''));
      if (!range || Number(range[1]) + 1 !== raw.length || Number(range[2]) !== raw.length)
        return answer(400, { error: { code: 'invalidRange', message: 'The Content-Range does not match the bytes sent.' } });
      upload.bytes = raw;
      return answer(201, { id: path.slice('/upload/'.length), name: upload.name, size: raw.length });
    }
    const tenant = `/${this.tenantId}`;
    if (req.method === 'GET' && path === `${tenant}/v2.0/.well-known/openid-configuration`)
      return answer(200, {
        issuer: `${this.url}${tenant}/v2.0`,
        token_endpoint: `${this.url}${tenant}/oauth2/v2.0/token`,
        authorization_endpoint: `${this.url}${tenant}/oauth2/v2.0/authorize`,
        end_session_endpoint: `${this.url}${tenant}/oauth2/v2.0/logout`,
        jwks_uri: `${this.url}${tenant}/discovery/v2.0/keys`,
      });
    if (req.method === 'POST' && path === `${tenant}/oauth2/v2.0/token`) {
      const form = new URLSearchParams(raw.toString());
      if (form.get('client_id') !== this.appId || form.get('client_secret') !== this.appPassword)
        return answer(401, { error: 'invalid_client', error_description: 'AADSTS7000215: Invalid client secret provided.', error_codes: [7000215] });
      const token = `app-token-${randomUUID()}`;
      this.tokens.add(token);
      return answer(200, { token_type: 'Bearer', expires_in: 3599, ext_expires_in: 3599, access_token: token });
    }
    if (path.startsWith('/connector/')) return this.connector(req.method ?? 'GET', path.slice('/connector'.length), req, raw, answer);
    answer(404, { error: { code: 'NotFound', message: `fake Teams has no ${req.method} ${path}` } });
  }

  private connector(
    method: string,
    path: string,
    req: IncomingMessage,
    raw: Buffer,
    answer: (status: number, body?: unknown, headers?: Record<string, string>) => void,
  ): void {
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    if (!token || !this.tokens.has(token)) return answer(401, { error: { code: 'Unauthorized', message: 'Authorization has been denied for this request.' } });
    const match = /^\/v3\/conversations\/([^/]+)(?:\/(activities|members)(?:\/([^/]+))?)?$/.exec(path);
    if (!match) return answer(404, { error: { code: 'NotFound', message: path } });
    const conversation = decodeURIComponent(match[1]!);
    const [kind, item] = [match[2], match[3] ? decodeURIComponent(match[3]) : undefined];
    if (!this.conversations.has(conversation.split(';')[0]!))
      return answer(403, { error: { code: 'BotNotInConversationRoster', message: 'The bot is not part of the conversation roster.' } });
    if (kind === 'members' && method === 'GET' && item) {
      const person = [...this.people.values()].find((p) => p.aadObjectId === item || p.id === item);
      return person
        ? answer(200, { id: person.id, name: person.name, aadObjectId: person.aadObjectId, tenantId: this.tenantId })
        : answer(404, { error: { code: 'MemberNotFoundInConversation', message: 'The member was not found.' } });
    }
    if (kind !== 'activities') return answer(404, { error: { code: 'NotFound', message: path } });
    if (raw.length > ACTIVITY_BYTES) return answer(413, { error: { code: 'MessageSizeTooBig', message: 'Message size too big.' } });
    const wait = this.throttled > 0 ? (this.throttled--, 1) : this.limits.take(conversation);
    if (wait !== undefined) this.throttledCalls++;
    if (wait !== undefined) return answer(429, { error: { code: 'Throttled', message: 'Too many requests.' } }, { 'retry-after': String(wait) });
    let activity: { type?: string; text?: string; textFormat?: string; attachments?: BotAttachment[] };
    try {
      activity = JSON.parse(raw.toString()) as typeof activity;
    } catch {
      return answer(400, { error: { code: 'BadArgument', message: 'Unreadable activity.' } });
    }
    if (activity.type !== 'message') return answer(400, { error: { code: 'BadArgument', message: 'Unknown activity type.' } });
    const text = activity.text ?? '';
    const textFormat = activity.textFormat;
    const attachments = activity.attachments ?? [];
    if (attachments.some((a) => a.contentType === FILE_CONSENT_CARD) && !conversation.startsWith('a:'))
      return answer(400, { error: { code: 'BadArgument', message: 'A file consent card is allowed in a personal chat only.' } });
    if (method === 'PUT' && item) {
      const message = this.messages.find((m) => m.id === item && m.conversation === conversation);
      if (!message) return answer(404, { error: { code: 'ActivityNotFoundInConversation', message: 'The activity was not found.' } });
      Object.assign(message, { text, textFormat, attachments, edits: message.edits + 1 });
      this.calls.push({ method: 'updateActivity', conversation, text: this.shown(message).text, time: Date.now() });
      return answer(200, { id: item });
    }
    if (method !== 'POST') return answer(405);
    const id = this.newId();
    const message: BotMessage = { id, conversation, text, ...(textFormat ? { textFormat } : {}), attachments, edits: 0 };
    this.messages.push(message);
    this.calls.push({ method: item ? 'replyToActivity' : 'sendToConversation', conversation, text: this.shown(message).text, time: Date.now() });
    answer(201, { id });
  }
}
