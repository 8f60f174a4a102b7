/*
 * The calls a CLI makes to its model API, as its adapter lists them (`walls.modelApi.routes`):
 * the credential proxy sends on only those, with the real credential. A route is a method and
 * a path relative to the API's base URL: `POST /v1/messages`. In a path, `*` stands for one
 * segment (`GET /v1/models/*`) and a path ending in `/**` for everything below it
 * (`GET /api/**`); the method `*` is any method. The query is not part of the match.
 */

/** A route as written: `METHOD /path`, the method upper case or `*`. */
export const ROUTE_SHAPE = /^(\*|[A-Z]+) (\/[\w.~*-]*)+$/;

/** Why a route is not one (`walls.modelApi.routes` in a manifest), or undefined. */
export function routeProblem(route: string): string | undefined {
  if (!ROUTE_SHAPE.test(route)) return 'a method and a path: "POST /v1/messages", "GET /v1/models/*", "* /api/**"';
  const segments = route.slice(route.indexOf(' ') + 2).split('/');
  if (segments.some((segment, i) => segment.includes('*') && segment !== '*' && !(segment === '**' && i === segments.length - 1)))
    return 'a `*` stands for a whole segment, and `**` only ends a path';
  if (segments.some((segment) => segment === '.' || segment === '..')) return 'no `.` or `..` segments';
  return undefined;
}

/**
 * Whether a call is one of `routes`. A path the API might read otherwise than this match does
 * (dot segments, an encoded slash, dot or backslash, an empty segment) is never one.
 */
export function routeAllowed(routes: readonly string[], method: string | undefined, url: string | undefined): boolean {
  const path = (url ?? '/').split('?')[0]!;
  if (!path.startsWith('/') || /%(2f|5c|2e)|\\|\/\/|(^|\/)\.\.?(\/|$)/i.test(path)) return false;
  const segments = path.slice(1).split('/');
  return routes.some((route) => {
    const space = route.indexOf(' ');
    const [want, pattern] = [route.slice(0, space), route.slice(space + 2).split('/')];
    if (want !== '*' && want !== method) return false;
    if (pattern.at(-1) === '**') return segments.length >= pattern.length && pattern.slice(0, -1).every((part, i) => part === '*' || part === segments[i]);
    return segments.length === pattern.length && pattern.every((part, i) => part === '*' || part === segments[i]);
  });
}
