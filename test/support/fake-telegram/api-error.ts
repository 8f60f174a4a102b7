/**
 * A Bot API failure, carried as an exception from a method handler to the HTTP layer, which
 * answers it with Telegram's envelope `{ ok: false, error_code, description, parameters? }`.
 */
export interface ResponseParameters {
  readonly retry_after?: number;
  readonly migrate_to_chat_id?: number;
}

export class ApiError extends Error {
  constructor(
    readonly code: number,
    readonly description: string,
    readonly parameters?: ResponseParameters,
  ) {
    super(`${code}: ${description}`);
    this.name = 'ApiError';
  }
}

/** Telegram prefixes every 400 description with "Bad Request: ". */
export function badRequest(detail: string): ApiError {
  return new ApiError(400, `Bad Request: ${detail}`);
}

export function tooManyRequests(retryAfter: number): ApiError {
  return new ApiError(429, `Too Many Requests: retry after ${retryAfter}`, {
    retry_after: retryAfter,
  });
}

/** Descriptions Telegram answers with when a test injects only a status code. */
export function defaultDescription(code: number): string {
  switch (code) {
    case 400:
      return 'Bad Request';
    case 401:
      return 'Unauthorized';
    case 403:
      return 'Forbidden: bot was blocked by the user';
    case 404:
      return 'Not Found';
    case 409:
      return 'Conflict: terminated by other getUpdates request; make sure that only one bot instance is running';
    case 500:
      return 'Internal Server Error';
    case 502:
      return 'Bad Gateway';
    case 503:
      return 'Service Unavailable';
    case 504:
      return 'Gateway Timeout';
    default:
      return `Error ${code}`;
  }
}
