/**
 * The evidence checker's version, stored with every result and as the `source` of the flags it raises. Raise it when
 * what the checker reads or flags changes: `npm run cli -- evidence recheck` then re-runs the files checked by an
 * older one.
 */
export const CHECKER_VERSION = "checks/2";
