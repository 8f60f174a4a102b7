import { z } from 'zod';
import type { BlockedEvent, UsageEvent } from '../../kernel/protocols/events.ts';
import type { HostQuestion } from './egress-decision.ts';
import type { HostRule } from './host-rules.ts';
import { routeProblem } from './model-routes.ts';

/** An argument list of a manifest: `{placeholder}`s filled per turn (see argv.ts). */
export const argTemplate = z.array(z.string()).describe('an array of argument strings');
const variable = z.string().regex(/^[A-Z_][A-Z0-9_]*$/, 'an environment variable');
/** A path inside a home, relative to it and staying in it (a folder ends in `/`). */
const homePath = z
  .string()
  .regex(/^[\w.-]+(\/[\w.-]+)*\/?$/, 'a path relative to the home')
  .refine((path) => !path.split('/').some((part) => part === '..' || part === '.'), 'a path staying in the home');
const ROUTES_WANTED = 'list the calls the CLI makes to its model API, like "POST /v1/messages": the credential proxy sends on no other';

/** What an adapter says of its CLI in walls (`walls` in its manifest; the manifest says what each field is for). */
export const cliInWallsSchema = z
  .object({
    /** How it reaches its model API (model-api-access.ts): the credential it uses is held outside. */
    modelApi: z
      .object({
        /** In the order the CLI prefers them: of two sent in one header, the first is held, the other left out. */
        credentials: z
          .array(
            z
              .object({
                /** The variable holding it: ANTHROPIC_API_KEY, CODEX_API_KEY, CLAUDE_CODE_OAUTH_TOKEN. */
                variable,
                /** The header it goes in, lower case: `x-api-key`, `authorization`. */
                header: z
                  .string()
                  .regex(/^[a-z0-9-]+$/, 'a header name in lower case')
                  .refine((header) => header !== 'host', 'not host'),
                /** Written before it in the header: `Bearer`. */
                scheme: z.string().min(1).optional(),
              })
              .strict(),
          )
          .min(1),
        /** Where the API is: the variable naming its base URL (read by the bridge), else `default`; neither: the CLI does not use this API as it is set. */
        upstream: z
          .object({
            variable: z.string().optional(),
            default: z.url({ protocol: /^https?$/ }).optional(),
          })
          .strict(),
        /** How the CLI is told the proxy's URL: a variable it reads, or arguments put before its own (`{modelApiUrl}` in them is the proxy's URL inside). */
        pointAt: z
          .object({ env: z.string().optional(), args: argTemplate.optional() })
          .strict()
          .refine((pointAt) => pointAt.env !== undefined || pointAt.args !== undefined, 'needs env or args'),
        /** The calls it makes there (`POST /v1/messages`, see model-routes.ts): the credential proxy sends on no other. */
        routes: z
          .array(
            z.string().superRefine((route, ctx) => void (routeProblem(route) && ctx.addIssue({ code: 'custom', message: routeProblem(route)! }))),
            { error: ROUTES_WANTED },
          )
          .min(1, ROUTES_WANTED),
      })
      .strict()
      .optional(),
    args: argTemplate.default([]),
    permissions: z.object({ bypass: argTemplate, safe: argTemplate, allowlist: argTemplate }).partial().strict().default({}),
    /** Variables naming where it keeps its settings and sessions on the host: left out, so it keeps them in its home inside. */
    unset: z.array(variable).default([]),
    /** Its configuration's paths in its home (see operator-config.ts); a folder ends in `/`. */
    config: z.array(homePath).default([]),
    /** Files the CLI must write, whose named top-level fields are nonetheless configuration: reset to the operator's at each start. */
    operatorFields: z.record(homePath, z.array(z.string().min(1)).min(1)).default({}),
    /** Its login's files in its uid's home, copied into the sandbox's, and again whenever the operator's is newer (it refreshes them there). */
    login: z.array(homePath).default([]),
    /** Files copied in once, when a home is made, that it rewrites as it goes (Claude Code's `.claude.json`). */
    givenOnce: z.array(homePath).default([]),
    /** Hosts it calls besides its model API's, on 443 (codex's chatgpt.com, for a ChatGPT login). */
    hosts: z.array(z.string().regex(/^[a-z0-9-]+(\.[a-z0-9-]+)+$/, 'a host name, like "chatgpt.com"')).default([]),
    /** Where it unpacks its own program, unpacked once for every sandbox instead of in each home (see program-cache.ts). */
    programCache: z
      .object({
        /** The variable naming the folder it unpacks into. */
        env: variable,
        /** Its arguments and environment that make it unpack, then exit. */
        fill: z.object({ args: argTemplate.default([]), env: z.record(z.string(), z.string()).default({}) }).strict(),
      })
      .strict()
      .optional(),
  })
  .strict();

export type CliInWalls = Partial<z.output<typeof cliInWallsSchema>>;
export type ModelApiAccess = NonNullable<CliInWalls['modelApi']>;
/** One credential a CLI takes from its environment, and the header it sends it in. */
export type CredentialSpec = ModelApiAccess['credentials'][number];
export type ProgramCache = NonNullable<CliInWalls['programCache']>;
/** What an adapter declares of its CLI's configuration in its home. */
export type CliConfig = Pick<CliInWalls, 'config' | 'operatorFields'>;

/** The adapters of the CLIs a bridge drives, as far as their walls go. */
export type WalledClis = Iterable<{ walls: CliInWalls }>;

/** What one CLI process's walls are made of, besides what every sandbox has. */
export interface WallScope {
  /** Whose home it gets (a chat's key, a run's id): kept across turns and restarts, so sessions resume. */
  home: string;
  /** `safe`: its working directory is read-only too. */
  readOnly?: boolean;
  /** Files and folders the bridge wrote for this process (its MCP config, a large prompt's folder): shown read-only. */
  readable?: string[];
  /** The bridge's MCP endpoint for it: the same URL works inside, through a socket bound in. */
  mcpUrl?: string;
  /** Its chat's own hosts (`/net allow`), read at each connection, where a refusal is told, and who is asked about a host not on the list (`ask` mode). */
  egress?: {
    allow?: () => readonly HostRule[];
    onBlocked?: (host: string, why: string) => void;
    ask?: (host: string, port: number) => HostQuestion | undefined;
  };
  /** What its adapter says of its CLI in walls (`walls` in its manifest). */
  cli?: CliInWalls;
  /** Each model call its credential proxy passed, metered from the API's answer. */
  onMetered?: (event: UsageEvent) => void;
}

/**
 * A turn's walls: the session's, with what this process of it reads (its MCP config, its turn
 * folder) and the MCP endpoint it calls; what its walls refuse and meter is `report`ed as the
 * turn's events.
 */
export function turnWalls(
  base: WallScope | undefined,
  mcp: { url: string; configFile?: string } | undefined,
  folders: (string | undefined)[],
  report: (event: BlockedEvent | UsageEvent) => void,
  cli?: CliInWalls,
): WallScope | undefined {
  if (!base) return undefined;
  // The MCP config file alone, not its folder: every session's config (and secret) is in that folder.
  const readable = [...(base.readable ?? []), ...folders, mcp?.configFile].filter((f): f is string => !!f);
  const egress = {
    ...base.egress,
    onBlocked: (host: string, why: string) => {
      base.egress?.onBlocked?.(host, why);
      report({ type: 'blocked', host, why });
    },
  };
  const onMetered = (event: UsageEvent) => {
    base.onMetered?.(event);
    report(event);
  };
  return { ...base, readable, egress, onMetered, ...(mcp ? { mcpUrl: mcp.url } : {}), ...(cli ? { cli } : {}) };
}
