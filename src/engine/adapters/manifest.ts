import { z } from 'zod';
import { inputEncoders, liveDialects, liveOnlyProtocols, protocolNames } from '../../kernel/protocols/index.ts';
import { SAVED_SESSION_FORMATS } from './saved-sessions.ts';
import { TURN_OPTION_NAMES, TURN_OPTIONS, type TurnOptionName } from './turn-options.ts';
import { argTemplate, cliInWallsSchema } from '../sandbox/wall-scope.ts';

/**
 * The shape of `adapters/<name>.json`: everything the bridge needs to know to drive one CLI.
 * Each argument list is a template; `{placeholder}`s are filled per turn (see argv.ts), and
 * a list whose value is absent for a turn is left out entirely. `{placeholder|json}` fills
 * in a quoted JSON string, which is also a TOML string (for codex's `-c key=value`).
 */

/** Each option's arguments: a CLI without one simply does not offer it. */
const optionTemplates = z
  .object(Object.fromEntries(TURN_OPTION_NAMES.map((name) => [name, argTemplate])) as Record<TurnOptionName, typeof argTemplate>)
  .partial()
  .strict()
  .default({});
export const PLACEHOLDERS = ['prompt', 'promptFile', 'sessionId', ...TURN_OPTION_NAMES.flatMap((name) => TURN_OPTIONS[name].placeholders)];
/** `{name}` or `{name|json}`. */
export const PLACEHOLDER_PATTERN = /\{(\w+)(?:\|(json))?\}/g;

const regexSource = z.string().refine(
  (pattern) => {
    try {
      new RegExp(pattern);
      return true;
    } catch {
      return false;
    }
  },
  { error: 'not a valid regular expression' },
);

export const adapterManifestSchema = z
  .object({
    name: z.string().regex(/^[a-z][a-z0-9-]*$/, 'a lower-case name: letters, digits and dashes'),
    description: z.string().default(''),
    /** Executable name (looked up on PATH) or path; `BRIDGE_<NAME>_COMMAND` overrides it. */
    command: z.string().min(1),
    protocol: z.enum(protocolNames as [string, ...string[]]),
    /** The model the CLI runs when none is named, for pricing and metrics (the operator's prices.json `defaults` over it). */
    defaultModel: z.string().min(1).max(200).optional(),
    /** Whose models it runs, as the GenAI conventions name providers (`anthropic`), where the model's name does not say. None: any vendor's (droid). */
    provider: z.optional(z.string().regex(/^[a-z][\w.-]*$/, 'a GenAI provider name, like "openai"')),
    /** Arguments every turn starts with. */
    args: argTemplate,
    /**
     * How the prompt is passed, always last: e.g. ["-p", "--", "{prompt}"]. Put the CLI's end of
     * options (`--`) before it, so a prompt that starts with a dash stays text. None for a
     * CLI whose dialect is live only (ACP: the prompt is a `session/prompt`).
     */
    prompt: argTemplate.default([]),
    /**
     * How a prompt too large for one argument (Linux refuses more than 128 KiB) is passed
     * instead: on standard input (`["-p"]` for Claude Code, `["-"]` for codex), or in a file
     * the bridge writes for the turn (`["-f", "{promptFile}"]` for droid). Without it, such a
     * prompt fails its turn with a sentence saying so.
     */
    largePrompt: z
      .object({ args: argTemplate, via: z.enum(['stdin', 'file']) })
      .strict()
      .optional(),
    /**
     * Instead of `prompt`, for a CLI that reads messages on its standard input while it works
     * (Claude Code: ["-p", "--input-format", "stream-json"]): the prompt, and messages sent to a
     * running subagent, go there, in the dialect of `protocol` (it must have an input encoder).
     */
    streamInput: argTemplate.optional(),
    /**
     * Added to every turn in a directory the owner has not trusted (/trust), and to every
     * read-only one: the flags that make the CLI ignore the settings, hooks and MCP servers the
     * working directory ships (Claude Code: ["--setting-sources", "user", "--strict-mcp-config"]).
     * Empty for a CLI that has none; docs/permissions.md says what each CLI isolates.
     */
    untrusted: argTemplate.default([]),
    /**
     * For a CLI without such flags: the files of its configuration a repository can ship that
     * it would act on regardless (droid: [".factory/mcp.json", ".factory/settings.json"]),
     * relative to the working directory or any directory above it. An untrusted turn that finds
     * one refuses to start, naming it.
     */
    untrustedFiles: z.array(z.string().min(1)).default([]),
    /** Added when the turn continues the CLI's own session: e.g. ["--resume", "{sessionId}"]. None for a live-only dialect (ACP's `session/load`). */
    resume: argTemplate.default([]),
    /**
     * The arguments that continue a session in the CLI's own interactive mode, in a terminal
     * (`/handoff`): e.g. ["--resume", "{sessionId}"]. None: the CLI cannot be handed a session.
     */
    handoff: argTemplate.optional(),
    /** Where the CLI keeps its sessions on disk, so /resume can list those started in a terminal. */
    savedSessions: z.enum(SAVED_SESSION_FORMATS).optional(),
    /**
     * A regular expression matching the error of a resume whose session the CLI no longer
     * knows (Claude Code: "No conversation found with session ID"): the turn then runs again
     * in a fresh session, with a note, instead of failing every turn.
     */
    unknownSession: regexSource.optional(),
    /** Optional features; a CLI without one simply does not offer it. */
    options: optionTemplates,
    /**
     * Who answers the CLI's permission prompts. `bypass` is added to every turn that does not
     * ask the bridge (the CLI cannot ask anyone in a non-interactive run); `prompt` makes the
     * CLI ask the bridge's MCP tool instead, so a person can answer from the chat; `allowlist`
     * replaces `bypass` on a turn limited to a list of tools, so rules such as
     * `Bash(git log:*)` bind (Claude Code: `--allowedTools {allowedTools} --permission-mode
     * dontAsk`, which refuses whatever the list does not allow); `safe` replaces `bypass` in a
     * session that may only read (codex: `-s read-only`; droid: no `--auto`, its read-only
     * default). A CLI without `prompt` runs `safe` where a chat asked for `ask`.
     */
    permissions: z
      .object({
        bypass: argTemplate.default([]),
        prompt: argTemplate.optional(),
        allowlist: argTemplate.optional(),
        safe: argTemplate.optional(),
        /**
         * With `streamInput`: the CLI asks the bridge before tools over its own input and output
         * (the dialect's control messages), and takes interrupts and plan mode there (Claude
         * Code: ["--permission-prompt-tool", "stdio"]). It replaces the other permission flags:
         * the bridge answers by the chat's mode. A chat's main session on such a CLI keeps its
         * process between turns, steers it, and stops a turn without ending the process.
         */
        control: argTemplate.optional(),
        /**
         * What `bypass` lets the CLI do without asking: `everything` (Claude Code's
         * --dangerously-skip-permissions, droid's --auto high) or `workspace` (codex's
         * workspace-write sandbox). A run an agent starts gets no more than the agent has.
         */
        unattended: z.enum(['everything', 'workspace']).default('everything'),
      })
      .strict()
      .default({ bypass: [], unattended: 'everything' }),
    /**
     * For a CLI whose mode for staying up between turns is a program of its own (codex's
     * `app-server`): its dialect (`protocol`, which opens the session, sets the permission mode
     * and resumes by itself), its `args`, and the `options` whose flags differ there. The
     * `untrusted` flags and the other options apply as they are. A chat's main session then
     * keeps the process, steers it, stops a turn without ending it, and asks the chat before
     * the agent acts in `ask`.
     */
    live: z
      .object({
        protocol: z.enum(Object.keys(liveDialects) as [string, ...string[]]),
        args: argTemplate,
        /** The authentication method an ACP agent is told to use (`gemini-api-key`), where it offers it. */
        authMethod: z.string().min(1).optional(),
        /** How long the agent has to open its session (ACP's `initialize` and `session/new`) before its turns fail; its wire's default otherwise. */
        openTimeoutSeconds: z.number().positive().max(600).optional(),
        options: optionTemplates,
      })
      .strict()
      .optional(),
    /** How a list of tools is joined into one argument. */
    toolSeparator: z.string().default(','),
    /** What the MCP endpoint is handed as: a JSON file in Claude's `--mcp-config` format, or flags only. */
    mcpConfigFormat: z.enum(['claude-json', 'flags']).optional(),
    /**
     * How the CLI runs inside the bridge's walls (BRIDGE_SANDBOX). `modelApi`: the credentials
     * it takes from its environment (`variable`, the `header` it sends each in, a `scheme` such
     * as "Bearer" before it), where its API is (`upstream`: the variable naming its base URL,
     * else `default`; no default: the API is the CLI's only where the variable names it, as
     * Copilot's own key, without which it uses GitHub's), and how it is pointed at another (`pointAt`: a variable it reads, or
     * arguments put before its own, `{modelApiUrl}` in them): the bridge then holds the
     * credential and the CLI calls the bridge's credential proxy with a placeholder, which sends
     * on only the calls `routes` lists (`POST /v1/messages`, below the API's base URL). `args`:
     * added to each turn in walls (Claude Code's settings turning its own sandbox off);
     * `permissions`: replace the permission flags of those modes in walls (codex's own
     * sandbox, which cannot nest in ours, off: ours makes `safe` read-only); `unset`: the
     * variables naming where the CLI keeps its settings and sessions on the host (codex's
     * CODEX_HOME), left out in walls, where that folder is not: it keeps them in its home there.
     * `config`: what the CLI reads as its configuration in its home (relative to it, a folder
     * ending in `/`): in walls each is the operator's, read-only, at every start, or a blank;
     * `operatorFields`: files it must write whose named top-level fields are configuration
     * nonetheless (Claude Code's `.claude.json`: `mcpServers`, `projects`), reset to the
     * operator's at every start. `login`: its login's files, copied in whenever the operator's is
     * newer; `givenOnce`: copied in once, rewritten by the CLI (Claude Code's `.claude.json`);
     * `hosts`: what it calls besides its model API, on 443, which every sandbox reaches too
     * (codex's chatgpt.com). `programCache`: the variable naming where the CLI unpacks its own
     * program on its first start in a home (Copilot's 235 MB), and how it is made to unpack
     * only (`fill`): the bridge has it unpack once into a folder every sandbox is shown
     * read-only, so no home holds a copy. docs/sandbox.md says what each CLI declares.
     */
    walls: cliInWallsSchema.prefault({}),
    /** Environment the CLI needs on top of the bridge's own (which passes through unchanged). */
    env: z.record(z.string(), z.string()).default({}),
    /**
     * How `npm run doctor` asks the CLI about itself: the arguments that print its version,
     * and how to tell it has credentials: one of `env` set, its own configuration naming a
     * model provider of its own (`ownProvider`: the first of `files` whose `$VARIABLES` are
     * set, `~` its user's home, has a line matching `pattern`: that provider's key is the
     * configuration's business), or `args` exiting 0 with no line matching `missing`; `fix`
     * says what to do otherwise. The same recipe answers a chat's first turn on a CLI
     * without credentials, in one line, before the CLI runs.
     */
    doctor: z
      .object({
        version: argTemplate.default(['--version']),
        credentials: z
          .object({
            env: z.array(z.string()).default([]),
            args: argTemplate.optional(),
            missing: regexSource.optional(),
            ownProvider: z
              .object({ files: z.array(z.string().min(1)).min(1), pattern: regexSource })
              .strict()
              .optional(),
            fix: z.string().min(1),
          })
          .strict()
          .optional(),
      })
      .strict()
      .default({ version: ['--version'] }),
  })
  .strict()
  .superRefine((manifest, ctx) => {
    const { args, prompt, streamInput, untrusted, resume, handoff, largePrompt, live, walls } = manifest;
    // Every argument template, by its field's path: the lists in each of these objects.
    const templates = Object.entries({
      '': { args, prompt, streamInput, untrusted, resume, handoff },
      'largePrompt.': { args: largePrompt?.args },
      'options.': manifest.options,
      'permissions.': manifest.permissions,
      'live.': { args: live?.args },
      'walls.': { args: walls.args },
      'walls.permissions.': walls.permissions,
      'live.options.': live?.options ?? {},
    }).flatMap(([prefix, lists]) => Object.entries(lists).flatMap(([key, list]) => (Array.isArray(list) ? [[`${prefix}${key}`, list] as const] : [])));
    for (const [path, template] of templates) {
      template.forEach((arg, index) => {
        for (const [, name] of arg.matchAll(PLACEHOLDER_PATTERN)) {
          if (!PLACEHOLDERS.includes(name!)) {
            ctx.addIssue({
              code: 'custom',
              path: [...path.split('.'), index],
              message: `unknown placeholder {${name}}; expected one of ${PLACEHOLDERS.map((p) => `{${p}}`).join(', ')}`,
            });
          }
        }
      });
    }
    const liveOnly = liveOnlyProtocols.has(manifest.protocol);
    if (liveOnly && manifest.live?.protocol !== manifest.protocol) {
      ctx.addIssue({
        code: 'custom',
        path: ['live'],
        message: `the ${manifest.protocol} dialect is live only: add "live": {"protocol": "${manifest.protocol}", "args": [...]}`,
      });
    }
    if (!liveOnly && !manifest.prompt.some((arg) => arg.includes('{prompt}'))) {
      ctx.addIssue({ code: 'custom', path: ['prompt'], message: 'must contain {prompt}' });
    }
    if (manifest.streamInput && !inputEncoders[manifest.protocol]) {
      ctx.addIssue({ code: 'custom', path: ['streamInput'], message: `the ${manifest.protocol} dialect has no input messages; remove streamInput` });
    }
    if (manifest.permissions.control && (!manifest.streamInput || !liveDialects[manifest.protocol])) {
      ctx.addIssue({
        code: 'custom',
        path: ['permissions', 'control'],
        message: manifest.streamInput ? `the ${manifest.protocol} dialect has no control messages; remove permissions.control` : 'needs streamInput',
      });
    }
    if (manifest.live && manifest.permissions.control) {
      ctx.addIssue({ code: 'custom', path: ['live'], message: 'a CLI stays up one way: its own control channel (permissions.control) or live, not both' });
    }
    for (const [path, template] of [['resume', liveOnly ? undefined : manifest.resume] as const, ['handoff', manifest.handoff] as const]) {
      if (template && !template.some((arg) => arg.includes('{sessionId}'))) ctx.addIssue({ code: 'custom', path: [path], message: 'must contain {sessionId}' });
    }
  });

export type AdapterManifest = z.infer<typeof adapterManifestSchema>;
