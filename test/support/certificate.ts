import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';

/** A self-signed certificate for localhost and 127.0.0.1, valid a day: PEM files in a new directory. */
export async function selfSignedCertificate(): Promise<{ dir: string; cert: string; key: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'tls-'));
  const [cert, key] = [join(dir, 'cert.pem'), join(dir, 'key.pem')];
  await execa('openssl', [
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    key,
    '-out',
    cert,
    '-days',
    '1',
    '-subj',
    '/CN=localhost',
    '-addext',
    'subjectAltName=DNS:localhost,IP:127.0.0.1',
  ]);
  return { dir, cert, key };
}
