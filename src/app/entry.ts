import { ConfigError, EX_CONFIG } from '../kernel/errors/config-error.ts';
import { guardOutput, printFatal } from '../kernel/log/fatal.ts';
import type { Log } from '../kernel/log/logger.ts';
import { reapOrphans } from '../engine/process/end-own-clis.ts';
import { removeLeftScratch } from '../engine/process/scratch.ts';
import { refuseStateInProjects } from '../engine/projects/projects-settings.ts';
import { logAgentUser, logSandbox, startAgentSpace, startWalls } from '../engine/process/agent-start.ts';
import { proxyMetering } from '../engine/sandbox/proxy-metering.ts';
import { startTracing, type Tracing } from '../services/telemetry/tracing.ts';
import type { ServiceName } from '../services/telemetry/resource.ts';
import type { BridgeConfig } from './config.ts';

/**
 * What an entry (the bridge, a worker, the doctor) is named by in what it prints: whatever it
 * prints, from the first line to a crash, is redacted (see guardOutput); `refused` says the
 * setup's fault, and `run` runs its main to an exit code.
 */
export function entry(name: string) {
  const secrets = guardOutput(name);
  return {
    secrets,
    /** The setup's fault (a ConfigError), said in one line, ends the start with EX_CONFIG; anything else is thrown on. */
    refused: (error: unknown): number => {
      if (!(error instanceof ConfigError)) throw error;
      console.error(secrets.redact(`${name}: ${error.message}`));
      return EX_CONFIG;
    },
    /** `exit` takes main's code; a crash is printed (redacted), then `onFatal` runs, and the process exits 1. */
    run: (main: () => Promise<number>, exit: (code: number) => void, onFatal = () => {}): void => {
      main().then(exit, (error) => {
        printFatal(`${name}: fatal`, error, secrets);
        onFatal();
        process.exit(1);
      });
    },
  };
}

/**
 * How long a second signal is the first one again: under `npm start` (or `npm run worker`), the
 * process group's SIGTERM (or Ctrl-C's SIGINT) also comes forwarded by npm, a moment later.
 */
const SAME_SIGNAL_MS = 1000;

/** Calls `handle` at each SIGINT or SIGTERM (but one within SAME_SIGNAL_MS of the last), with how many came before it. */
export function onSignals(handle: (signal: NodeJS.Signals, before: number) => void): void {
  let before = 0;
  let lastAt = 0;
  for (const signal of ['SIGINT', 'SIGTERM'] as const)
    process.on(signal, () => {
      if (Date.now() - lastAt < SAME_SIGNAL_MS) return;
      lastAt = Date.now();
      handle(signal, before++);
    });
}

/**
 * What a process that runs CLIs (the bridge, a worker) does before its first: its traces
 * exported (OTEL_EXPORTER_OTLP_ENDPOINT), what a killed one left (CLIs, scratch folders)
 * ended and removed, `migrate` (the bridge's data directory), then the agents' space and walls
 * started. The setup's faults are ConfigErrors.
 */
export async function startAgentsHere(
  config: BridgeConfig,
  service: ServiceName,
  log: Log,
  migrate: () => Promise<unknown> = async () => {},
): Promise<Tracing> {
  const tracing = await startTracing(service, log);
  if (tracing.exporting) log.info(`exporting traces over OTLP (${tracing.exporting})`);
  await reapOrphans(config.dataDir, log);
  await removeLeftScratch(log);
  await migrate();
  refuseStateInProjects(config);
  await startAgentSpace(config.agentUser, log, config.dataDir);
  startWalls(config.sandbox, config.dataDir, config.agentUser, config.adapters.values(), proxyMetering(config));
  return tracing;
}

/** Who the agents run as, and in what walls. */
export function sayWalls(config: BridgeConfig, log: Log): void {
  logAgentUser(config.agentUser, config.sandbox, config.dataDir, log);
  logSandbox(config.sandbox, log);
}
