// `npm run manifest`: writes the commands and tools of manifest.json from their modules (the contract names
// the file; the code is where they are defined). Its settings stay as operators left them.
import { readFile, writeFile } from 'node:fs/promises';
import { manifestFromCode } from './manifest-from-code.ts';

const path = new URL('../manifest.json', import.meta.url);
const before = await readFile(path, 'utf8');
const after = await manifestFromCode(JSON.parse(before) as Record<string, unknown>);
if (after === before) console.log('manifest.json is up to date.');
else {
  await writeFile(path, after);
  console.log('manifest.json written.');
}
