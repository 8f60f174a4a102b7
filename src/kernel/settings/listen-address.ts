import { readFile } from 'node:fs/promises';
import { ConfigError } from '../errors/config-error.ts';

/** `host:port` (an IPv6 host in brackets), or the variable named as wrong. */
export function hostPort(name: string, raw: string, example: string): { host: string; port: number } {
  const match = /^(.+):(\d{1,5})$/.exec(raw);
  if (!match || Number(match[2]) > 65535) throw new ConfigError(`${name}: expected host:port, like ${example}, got "${raw}"`);
  return { host: match[1]!.replace(/^\[(.*)\]$/, '$1'), port: Number(match[2]) };
}

/** `<prefix>_TLS_CERT` and `<prefix>_TLS_KEY`: both PEM files, read now, or neither (no TLS). */
export async function tlsFiles(env: NodeJS.ProcessEnv, prefix: string): Promise<{ cert: Buffer; key: Buffer } | undefined> {
  const certName = `${prefix}_TLS_CERT`;
  const keyName = `${prefix}_TLS_KEY`;
  const certFile = env[certName]?.trim();
  const keyFile = env[keyName]?.trim();
  if (Boolean(certFile) !== Boolean(keyFile)) throw new ConfigError(`${certName} and ${keyName}: set both (PEM files) for TLS, or neither`);
  if (!certFile || !keyFile) return undefined;
  const read = (name: string, file: string) =>
    readFile(file).catch((error: Error) => {
      throw new ConfigError(`${name}: cannot read ${file}: ${error.message}`);
    });
  return { cert: await read(certName, certFile), key: await read(keyName, keyFile) };
}
