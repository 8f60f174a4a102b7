import { existsSync } from 'node:fs';
import { copyFile, mkdir, readFile } from 'node:fs/promises';
import { textIfThere, writePrivateFile } from './private-files.ts';
import { join } from 'node:path';
import { ConfigError } from '../errors/config-error.ts';
import type { Log } from '../log/logger.ts';
import { IdsAsStrings, type LegacyTransport } from './migrations/ids-as-strings.ts';

/**
 * The format of the records in the data directory, as this bridge writes them. A bridge
 * migrates older data on start, keeping the files as they were, and refuses newer data: it
 * would misread it, and what it wrote would be lost on the next upgrade.
 */
export const DATA_FORMAT = 2;

const FORMAT_FILE = 'format.json';

/** The files whose records a migration rewrites: a JSON document each, or JSON lines (`.jsonl`, a record a line). */
const FILES = ['chats.json', 'subagents.json', 'orchestrations.json', 'usage.json', 'subagents-archive.jsonl', 'orchestrations-archive.jsonl'] as const;

type Json = Record<string, unknown>;

/** One step up: how each file's records change (a document's whole, or each line's record). */
type Migration = Record<(typeof FILES)[number], (data: Json) => Json>;

/** What migrating needs to know of the past: which transport format 1's numeric chat ids were. */
export interface MigrationContext {
  legacyTransport: LegacyTransport;
}

function migrations(context: MigrationContext): Record<number, Migration> {
  const ids = new IdsAsStrings(context.legacyTransport);
  return {
    1: {
      'chats.json': (data) => ids.chats(data),
      'subagents.json': (data) => ids.numbered(data, 'runs', (run) => ids.run(run)),
      'orchestrations.json': (data) => ids.numbered(data, 'orchestrations', (record) => ids.orchestration(record)),
      'usage.json': (data) => ids.usage(data),
      'subagents-archive.jsonl': (record) => ids.run(record),
      'orchestrations-archive.jsonl': (record) => ids.orchestration(record),
    },
  };
}

/**
 * Brings the data directory to DATA_FORMAT before anything reads it. Data of an older format
 * is copied to `backups/format-<n>-<time>/` first, then rewritten a step at a time; the
 * format is recorded last, so a migration cut short runs again (each step leaves migrated
 * records as they are). Data of a newer format stops the start with one line.
 */
export async function migrateDataDir(dataDir: string, context: MigrationContext, log: Log): Promise<{ from: number; backup?: string }> {
  const present = FILES.filter((name) => existsSync(join(dataDir, name)));
  // None recorded: format 1 where records exist (bridges before the format was recorded), else a new directory.
  const found = (await recordedFormat(dataDir)) ?? (present.length ? 1 : undefined);
  if (found === undefined) {
    await writeFormat(dataDir);
    return { from: DATA_FORMAT };
  }
  if (found > DATA_FORMAT)
    throw new ConfigError(
      `${dataDir} holds data of format ${found}, written by a newer jsonl-bridge; this one reads format ${DATA_FORMAT} and older: run the newer bridge, or give this one another BRIDGE_DATA_DIR`,
    );
  if (found === DATA_FORMAT) return { from: found };
  const backup = join(dataDir, 'backups', `format-${found}-${new Date().toISOString().replace(/[:.]/g, '-')}`);
  await mkdir(backup, { recursive: true, mode: 0o700 });
  for (const name of present) await copyFile(join(dataDir, name), join(backup, name));
  const steps = migrations(context);
  for (let format = found; format < DATA_FORMAT; format++) {
    const step = steps[format]!;
    for (const name of present) {
      const path = join(dataDir, name);
      const text = await readFile(path, 'utf8');
      const next = name.endsWith('.jsonl')
        ? migrateLines(text, step[name])
        : JSON.stringify({ ...step[name](JSON.parse(text) as Json), version: format + 1 }, null, 2);
      await writePrivateFile(path, next); // whole or not at all: a crash leaves the old file or the new one
    }
  }
  await writeFormat(dataDir);
  log.info(`migrated the data in ${dataDir} from format ${found} to ${DATA_FORMAT}; the files as they were are in ${backup}`);
  return { from: found, backup };
}

async function recordedFormat(dataDir: string): Promise<number | undefined> {
  const text = await textIfThere(join(dataDir, FORMAT_FILE));
  if (text === undefined) return undefined;
  const format = (JSON.parse(text) as { format?: unknown }).format;
  if (typeof format !== 'number' || !Number.isInteger(format) || format < 1)
    throw new ConfigError(`${join(dataDir, FORMAT_FILE)}: expected {"format": <number>}, got ${text.trim().slice(0, 80)}`);
  return format;
}

/** A line that does not parse (the torn end of a crash) is kept as it was: the archive's reader skips it as before. */
function migrateLines(text: string, step: (record: Json) => Json): string {
  return text
    .split('\n')
    .map((line) => {
      if (!line.trim()) return line;
      try {
        return JSON.stringify(step(JSON.parse(line) as Json));
      } catch {
        return line;
      }
    })
    .join('\n');
}

function writeFormat(dataDir: string): Promise<void> {
  return writePrivateFile(join(dataDir, FORMAT_FILE), `${JSON.stringify({ format: DATA_FORMAT })}\n`);
}
