/**
 * A command cannot do its work for a reason outside its arguments (a port another program holds, a data
 * directory that is not there): one line on stderr naming what and what to do, exit code 1.
 */
export class CannotStart extends Error {}

/** A thing an admin command was asked about is not there (no such account or key): one line, exit code 1. */
export class NotFound extends Error {}
