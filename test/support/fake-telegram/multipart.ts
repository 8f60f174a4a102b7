/**
 * A small multipart/form-data parser for what grammY streams: parts separated by
 * `--boundary`, headers written as `content-disposition:form-data;name="x";filename=y`
 * (no spaces, filename unquoted), files as raw bytes.
 */

export interface MultipartPart {
  readonly name: string;
  /** Present only for file parts. */
  readonly filename: string | undefined;
  readonly contentType: string | undefined;
  readonly body: Buffer;
}

export function boundaryOf(contentType: string): string | undefined {
  const match = /boundary=(?:"([^"]+)"|([^;]+))/i.exec(contentType);
  return match?.[1] ?? match?.[2]?.trim();
}

function parseDisposition(value: string): { name: string | undefined; filename: string | undefined } {
  const name = /(?:^|;)\s*name="([^"]*)"/i.exec(value)?.[1] ?? /(?:^|;)\s*name=([^;]*)/i.exec(value)?.[1];
  // grammY writes the filename unquoted up to the end of the line, so it may contain ';'.
  const quoted = /;\s*filename="([^"]*)"/i.exec(value)?.[1];
  const bare = /;\s*filename=(.*)$/i.exec(value)?.[1];
  return { name: name?.trim(), filename: quoted ?? bare?.trim() };
}

export function parseMultipart(body: Buffer, boundary: string): MultipartPart[] {
  const delimiter = Buffer.from(`--${boundary}`);
  const parts: MultipartPart[] = [];
  let start = body.indexOf(delimiter);
  if (start < 0) throw new Error('multipart body without a boundary');
  for (;;) {
    const afterDelimiter = start + delimiter.length;
    if (body.subarray(afterDelimiter, afterDelimiter + 2).toString() === '--') break; // closing delimiter
    const headerStart = afterDelimiter + 2; // skip CRLF
    const headerEnd = body.indexOf('\r\n\r\n', headerStart);
    if (headerEnd < 0) throw new Error('multipart part without a header terminator');
    const next = body.indexOf(Buffer.from(`\r\n--${boundary}`), headerEnd + 4);
    if (next < 0) throw new Error('multipart body is truncated');
    const headers = new Map<string, string>();
    for (const line of body.subarray(headerStart, headerEnd).toString('utf8').split('\r\n')) {
      const colon = line.indexOf(':');
      if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
    }
    const { name, filename } = parseDisposition(headers.get('content-disposition') ?? '');
    if (name !== undefined) {
      parts.push({
        name,
        filename,
        contentType: headers.get('content-type'),
        body: body.subarray(headerEnd + 4, next),
      });
    }
    start = next + 2; // the delimiter starts after the CRLF
  }
  return parts;
}
