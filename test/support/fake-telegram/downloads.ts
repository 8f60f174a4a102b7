import type { IncomingMessage, ServerResponse } from 'node:http';
import type { CallLog } from './call-log.ts';
import { faultError, type FaultPlan } from './faults.ts';
import type { World } from './world.ts';

/**
 * Serves `/file/bot<token>/<file_path>`, where the Bot API lets bots download files that
 * getFile described. Recorded as a `download` call; faults planned for `download` apply: an
 * error status, a hang, or (networkDrop) the connection cut after half of the body, so the
 * client sees a partial download. A fault's `text` option picks the file by its path. Like
 * Telegram's file server, an unknown path and a wrong token are both just 404.
 */
export function serveDownload(
  deps: { token: string; world: World; calls: CallLog; faults: FaultPlan },
  req: IncomingMessage,
  res: ServerResponse,
  token: string,
  path: string,
): void {
  const call = deps.calls.begin('download', { file_path: path }, []);
  const file = token === deps.token ? deps.world.fileAt(path) : undefined;
  const fail = (status: number, description: string, injected: boolean) => {
    const body = JSON.stringify({ ok: false, error_code: status, description });
    res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }).end(body);
    deps.calls.finish(call, { status, ok: false, injected });
  };
  if (req.method !== 'GET') return fail(405, 'Method Not Allowed', false);
  if (!file) return fail(404, 'Not Found', false);
  const fault = deps.faults.take('download', undefined, path);
  if (fault && 'hang' in fault) {
    res.on('close', () => deps.calls.finish(call, { status: 0, ok: false, injected: true }));
    return;
  }
  if (fault && 'code' in fault) {
    const error = faultError(fault);
    return fail(error.code, error.description, true);
  }
  res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': file.bytes.length });
  if (fault) {
    res.write(file.bytes.subarray(0, Math.floor(file.bytes.length / 2)), () => {
      req.socket.destroy();
      deps.calls.finish(call, { status: 0, ok: false, injected: true });
    });
    return;
  }
  res.end(file.bytes);
  deps.calls.finish(call, { status: 200, ok: true, result: { bytes: file.bytes.length }, injected: false });
}
