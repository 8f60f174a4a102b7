import { readOperatorFile } from '../../kernel/errors/operator-file.ts';
import { join } from 'node:path';
import { z } from 'zod';
import { ConfigError, describeIssues } from '../../kernel/errors/config-error.ts';
import { PERMISSION_MODES } from '../../kernel/policy/permission-mode.ts';
import { qualifiedId, type ChatRef } from '../../kernel/ports/chat.ts';

/** Where the hooks are defined: `BRIDGE_DATA_DIR/hooks.json`. */
export const HOOKS_FILE = 'hooks.json';

/** The shortest secret taken: one nobody guesses (`openssl rand -hex 32` makes 64 characters). */
export const MIN_HOOK_SECRET_CHARS = 16;
/** The longest a run may be given, as /spawn's --timeout: a day. */
const MAX_TIMEOUT_SECONDS = 86_400;

const id = z.union([z.string().trim().min(1).max(64), z.number().int()]);

const scalar = z.union([z.string(), z.number(), z.boolean(), z.null()]);

/** /spawn's options a hook's run may take. */
const spawnSchema = z
  .object({
    label: z.string().trim().min(1).max(64).optional(),
    cli: z.string().trim().min(1).optional(),
    model: z.string().trim().min(1).max(128).optional(),
    agent: z.string().trim().min(1).max(64).optional(),
    worktree: z.boolean().optional(),
    timeout: z.number().int().min(1).max(MAX_TIMEOUT_SECONDS).optional(), // seconds
  })
  .strict();

const hookSchema = z
  .object({
    chat: id,
    thread: id.optional(),
    /** The prompt, `{{a.b}}` filled from the delivery's JSON body as quoted data. */
    prompt: z.string().trim().min(1).max(10_000),
    /** `github`: X-Hub-Signature-256 over the raw body; `bearer`: `Authorization: Bearer <secret>`. */
    signature: z.enum(['github', 'bearer']),
    secret: z.string().min(MIN_HOOK_SECRET_CHARS, `expected a secret of at least ${MIN_HOOK_SECRET_CHARS} characters (openssl rand -hex 32)`),
    // `true`: a run with the chat's defaults, as `{}`.
    spawn: z.union([z.literal(false), z.literal(true), spawnSchema]).default(false),
    /** The most its work may do: its chat's own mode binds too. */
    mode: z.enum(PERMISSION_MODES).default('safe'),
    /** Deliveries it takes a minute; past that, 429. */
    perMinute: z.number().int().min(1).max(10_000).default(30),
    budget: z.number().positive('expected an amount of US dollars above 0, like 0.50').max(10_000).optional(),
    when: z.record(z.string().min(1), z.union([scalar, z.array(scalar).min(1)])).optional(),
  })
  .strict();

/** One webhook, `POST /hooks/<name>`, as its entry in the file says (`hookSchema`): whose delivery becomes a turn (or a run) in its chat. */
export type Hook = Pick<z.infer<typeof hookSchema>, 'prompt' | 'signature' | 'secret' | 'mode' | 'perMinute'> & {
  name: string;
  /** Where its turns and runs go (a topic when `thread` is given). */
  chat: ChatRef;
  /** A turn of the chat's main session (false), or a run with these /spawn options. */
  spawn: false | z.infer<typeof spawnSchema>;
  /** The most each delivery's turn or run may cost, in US dollars: it is stopped for cost once reached. */
  budgetUsd?: number;
  /** Only deliveries whose body has these values at these paths start work (`{"action": "completed", "workflow_run.conclusion": ["failure", "timed_out"]}`); others are ignored. */
  when?: Record<string, z.infer<typeof scalar>[]>;
};

const fileSchema = z
  .object({
    hooks: z.record(z.string(), hookSchema),
  })
  .strict();

/**
 * The hooks of `BRIDGE_DATA_DIR/hooks.json`: none when there is no file; a file that is not
 * valid stops the start, naming the file and the field. A chat is a bare number (the
 * transport `bareNumbers` names) or `transport:id`; a CLI must be one of `clis`.
 */
export async function loadHooks(dataDir: string, bareNumbers: string, clis: readonly string[]): Promise<Hook[]> {
  const file = join(dataDir, HOOKS_FILE);
  const text = await readOperatorFile(file);
  return text === undefined ? [] : parseHooks(text, file, bareNumbers, clis);
}

export function parseHooks(text: string, file: string, bareNumbers: string, clis: readonly string[]): Hook[] {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    // Not the parser's own words: they quote the file around the mistake, and it holds secrets.
    const at = /position (\d+)/.exec((error as Error).message)?.[1];
    throw new ConfigError(`${file}: not valid JSON${at === undefined ? '' : ` (${where(text, Number(at))})`}`);
  }
  const parsed = fileSchema.safeParse(json);
  if (!parsed.success) throw new ConfigError(`${file}: ${describeIssues(parsed.error.issues)}`);
  return Object.entries(parsed.data.hooks).map(([name, hook]) => {
    if (!/^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/.test(name))
      throw new ConfigError(
        `${file}: field "hooks.${name.slice(0, 64)}": a hook's name goes in its URL: letters, digits, _, . and -, at most 64, starting with a letter or digit`,
      );
    const field = (key: string) => `${file}: field "hooks.${name}.${key}"`;
    const chat = qualifiedId(String(hook.chat), bareNumbers);
    if (!chat || chat.split(':').length !== 2)
      throw new ConfigError(`${field('chat')}: expected a chat id (a number, like -1001234567890, or transport:id), got "${String(hook.chat).slice(0, 40)}"`);
    const thread = hook.thread === undefined ? undefined : String(hook.thread);
    if (thread !== undefined && !/^[\w-]{1,64}$/.test(thread)) throw new ConfigError(`${field('thread')}: expected a topic id, got "${thread.slice(0, 40)}"`);
    const spawn = hook.spawn === true ? {} : hook.spawn;
    if (spawn && spawn.cli !== undefined && !clis.includes(spawn.cli))
      throw new ConfigError(`${field('spawn.cli')}: unknown CLI "${spawn.cli}"; known: ${clis.join(', ')}`);
    const [transport, chatId] = chat.split(':') as [string, string];
    return {
      name,
      chat: thread === undefined ? { transport, chat: chatId } : { transport, chat: chatId, thread },
      prompt: hook.prompt,
      signature: hook.signature,
      secret: hook.secret,
      spawn,
      mode: hook.mode,
      perMinute: hook.perMinute,
      budgetUsd: hook.budget,
      ...(hook.when ? { when: Object.fromEntries(Object.entries(hook.when).map(([path, value]) => [path, [value].flat()])) } : {}),
    };
  });
}

function where(text: string, position: number): string {
  const before = text.slice(0, position).split('\n');
  return `line ${before.length}, column ${before.at(-1)!.length + 1}`;
}
