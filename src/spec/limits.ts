/** The most rows one page of POST /artifacts.php may hold, on every deployment (spec §4 per_page and §8 Limits). */
export const MAX_ROWS_PER_PAGE = 200;
