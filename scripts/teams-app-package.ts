// The Teams app package `npm run manifest` writes: manifest.json with its two icons, zipped, to
// upload in Teams (Apps → Manage your apps → Upload a custom app). Its app id is TEAMS_APP_ID,
// and its domain BRIDGE_WEB_URL's host, when set; placeholders to fill in otherwise.
import { Resvg } from '@resvg/resvg-js';
import { ZipArchive } from 'archiver';
import { createWriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { COMMANDS } from '../src/chat/commands/index.ts';
import { TEAMS_ICONS, teamsAppManifest } from '../src/transports/teams/app-manifest.ts';

const PLACEHOLDER_ID = '00000000-0000-0000-0000-000000000000';

export async function writeTeamsAppPackage(env: NodeJS.ProcessEnv): Promise<string> {
  const appId = env.TEAMS_APP_ID?.trim() || PLACEHOLDER_ID;
  const host = env.BRIDGE_WEB_URL?.trim() ? new URL(env.BRIDGE_WEB_URL.trim()).host : 'bridge.example.com';
  const manifest = teamsAppManifest(COMMANDS, { appId, host });
  const dir = new URL('../dist/', import.meta.url);
  await mkdir(dir, { recursive: true });
  const path = new URL('teams-app.zip', dir);
  const zip = new ZipArchive({ zlib: { level: 9 } });
  const written = new Promise<void>((resolve, reject) => {
    const out = createWriteStream(path);
    out.on('close', resolve);
    zip.on('error', reject);
    zip.pipe(out);
  });
  zip.append(`${JSON.stringify(manifest, null, 2)}\n`, { name: 'manifest.json' });
  zip.append(Buffer.from(new Resvg(TEAMS_ICONS.color).render().asPng()), { name: 'color.png' });
  zip.append(Buffer.from(new Resvg(TEAMS_ICONS.outline).render().asPng()), { name: 'outline.png' });
  await zip.finalize();
  await written;
  const missing = [appId === PLACEHOLDER_ID ? 'TEAMS_APP_ID' : '', host === 'bridge.example.com' ? 'BRIDGE_WEB_URL' : ''].filter(Boolean);
  return `dist/teams-app.zip written${missing.length ? ` (set ${missing.join(' and ')} and run it again for a package to upload)` : ''}.`;
}
