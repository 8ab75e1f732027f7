/** Every request body is at most 16 KiB: nothing this API accepts needs more. */
export const MAX_BODY_BYTES = 16 * 1024;
