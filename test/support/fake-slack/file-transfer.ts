import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Workspace } from './workspace.ts';

/** The upload URL files.getUploadURLExternal hands out: the bytes, as @slack/web-api posts them (a multipart `body` field, or raw). */
export async function handleUpload(workspace: Workspace, fileId: string, req: IncomingMessage, body: Buffer, res: ServerResponse): Promise<void> {
  const file = workspace.files.get(fileId);
  if (!file || file.shared) {
    res.writeHead(404).end('not found');
    return;
  }
  const type = req.headers['content-type'] ?? '';
  if (type.includes('multipart/form-data')) {
    const form = await new Request('http://fake/', { method: 'POST', headers: { 'content-type': type }, body }).formData();
    const part = [...form.values()].find((value) => typeof value !== 'string');
    file.content = part ? Buffer.from(await part.arrayBuffer()) : Buffer.alloc(0);
  } else file.content = body;
  res.writeHead(200, { 'content-type': 'text/plain' }).end(`OK - ${file.content.length}`);
  workspace.changes.notify();
}

/**
 * `url_private_download`: the bytes to a request with the bot token (and files:read). Without it Slack answers
 * 200 with its sign-in page, HTML, which a careless client saves as the file.
 */
export function handleDownload(workspace: Workspace, botToken: string, canRead: boolean, fileId: string, req: IncomingMessage, res: ServerResponse): void {
  const file = workspace.files.get(fileId);
  if (req.headers.authorization !== `Bearer ${botToken}` || !file || !canRead) {
    res
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      .end('<!DOCTYPE html><html><head><title>Slack</title></head><body>Sign in to Slack</body></html>');
    return;
  }
  res.writeHead(200, { 'content-type': file.mimetype, 'content-length': String(file.content.length) }).end(file.content);
}
