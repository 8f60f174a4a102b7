import type { Command } from '../dispatch/command.ts';
import { help, start } from './help.ts';
import { cli, model, newSession, status, stop } from './session.ts';
import { cd, project } from './projects.ts';
import { permissions } from './permissions.ts';
import { trust } from './trust.ts';
import { file } from './files.ts';
import { resumeCommand } from './resume.ts';
import { handoff } from './handoff.ts';
import { busy } from './busy.ts';
import { net } from './net.ts';
import { fallback } from './fallback.ts';
import { plan } from './plan.ts';
import { usage } from './usage.ts';
import { agents } from './agents.ts';
import { spawn } from './spawn.ts';
import { orchestrate, orchestrations } from './orchestrate.ts';
import { subagents } from './subagents.ts';
import { diff, discard, merge } from './review.ts';
import { dashboard } from './dashboard.ts';
import { at, every, schedules } from './schedules.ts';
import { hooks } from './hooks.ts';
import { whoami } from './whoami.ts';
import { exportCommand } from './export.ts';
import { allowCommand, deny } from './people.ts';

/**
 * Every slash command, in the order /help and the command menu list them. A new command is a
 * module and a line here; `npm run manifest` then writes it into manifest.json.
 * /stop's report and /status's rows follow this order too (orchestrations before subagents:
 * a plan's steps are stopped as part of it).
 */
export const COMMANDS: readonly Command[] = [
  start,
  help,
  newSession,
  stop,
  status,
  cli,
  model,
  cd,
  project,
  permissions,
  busy,
  net,
  fallback,
  plan,
  trust,
  file,
  resumeCommand,
  handoff,
  usage,
  exportCommand,
  agents,
  spawn,
  orchestrate,
  orchestrations,
  subagents,
  every,
  at,
  schedules,
  hooks,
  diff,
  merge,
  discard,
  dashboard,
  whoami,
  allowCommand,
  deny,
];
