/**
 * Paths the spec does not name that the checks probe with a GET: where a user enumeration could be served (§1 refuses
 * any), and a path no API serves, whose answer shows how a target answers paths it does not serve. No write of the run
 * can change what they answer, so each is one shared read of the run (Discovery.unnamedPath), and a full run sends them
 * while its checks load (prefetchedReads).
 */

/** A path no API serves: how a target answers it shows how it answers the paths it does not serve. */
export const NO_SUCH_PATH = '/conform-no-such-endpoint-5e0c7a.php';

/** Paths a user listing could live at, relative to the base URL (users by their usual names, as accounts and as members); each asked with `all=1`. */
export const USER_LISTING_PATHS = ['/users.php', '/user.php', '/users', '/accounts.php', '/members.php'] as const;
/** Only plausible where the base URL is a host's root: under a base that names a path (the API root) it would repeat it. */
export const ROOT_ONLY_LISTING_PATHS = ['/api/users.php'] as const;
/** The query a listing path is asked with. */
export const LISTING_QUERY = { all: 1 } as const;

/** The path that would read one user by id: asked for the second user's ids, which a listing path need not take. */
export const USER_BY_ID_PATH = '/user.php';
/** The collection path of a REST-style user route: /users/<id> reads one user. */
export const USER_REST_PATH = '/users';

/**
 * The listing path as routers also serve it while a refusal that compares the exact path lets it through (§1: any
 * enumeration of users is refused):
 * - with a trailing slash, served as /users.php;
 * - in another letter case, where paths match whatever their case;
 * - with a format suffix (/users.json), which web frameworks route to the same listing;
 * - with its dot percent-encoded (/users%2Ephp): a router that decodes the path serves /users.php, and
 *   RFC 3986 §6.2.2.2 makes it the same URI.
 */
export const USER_LISTING_VARIANTS = ['/users.php/', '/Users.php', '/users.json', '/users%2Ephp'] as const;

/** Whether a base URL is a host's root (no path of its own). */
export function atHostRoot(baseUrl: string): boolean {
  return new URL(baseUrl).pathname.replace(/\/+$/, '') === '';
}

/** The data-free unnamed-path reads of a full run: every user listing path (by the base URL), the variants, and the baseline. */
export function dataFreeUnnamedReads(baseUrl: string): { path: string; query: Record<string, string | number> }[] {
  const listings = [...USER_LISTING_PATHS, ...(atHostRoot(baseUrl) ? ROOT_ONLY_LISTING_PATHS : [])];
  return [
    ...listings.map((path) => ({ path, query: { ...LISTING_QUERY } })),
    ...USER_LISTING_VARIANTS.map((path) => ({ path, query: {} })),
    { path: NO_SUCH_PATH, query: { ...LISTING_QUERY } },
  ];
}

/** The key a shared read of an unnamed path is known by. */
export function unnamedPathKey(path: string, query: Record<string, string | number>): string {
  return `GET ${path}?${new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)])).toString()}`;
}
