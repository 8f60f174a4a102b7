// `npm run manifest`: writes the commands and tools of manifest.json from their modules (the contract names
// the file; the code is where they are defined), its settings staying as operators left them; and the Slack
// app's manifest, slack-app-manifest.yml, from the transport's own needs; and the Teams app package, dist/teams-app.zip.
import { readFile, writeFile } from 'node:fs/promises';
import { manifestFromCode, slackManifestFromCode } from './manifest-from-code.ts';
import { writeTeamsAppPackage } from './teams-app-package.ts';

const path = new URL('../manifest.json', import.meta.url);
const before = await readFile(path, 'utf8');
const after = await manifestFromCode(JSON.parse(before) as Record<string, unknown>);
if (after === before) console.log('manifest.json is up to date.');
else {
  await writeFile(path, after);
  console.log('manifest.json written.');
}

const slackPath = new URL('../slack-app-manifest.yml', import.meta.url);
const slackBefore = await readFile(slackPath, 'utf8').catch(() => '');
const slackAfter = await slackManifestFromCode();
if (slackAfter === slackBefore) console.log('slack-app-manifest.yml is up to date.');
else {
  await writeFile(slackPath, slackAfter);
  console.log('slack-app-manifest.yml written.');
}

console.log(await writeTeamsAppPackage(process.env));
