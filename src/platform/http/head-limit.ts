/**
 * A request's head (request line and headers) is at most 16 KiB, as Bun's parser allows by default, and a
 * larger one gets the API's JSON 431. Bun's own limit is raised to 64 KiB in the compiled binary (build.sh,
 * `--compile-exec-argv`), so that heads between the two reach the app and are refused here in the JSON
 * shape; past 64 KiB Bun's parser still answers a bodiless 431 and closes the connection, which bounds the
 * memory one connection can make the server hold while it sends a head.
 */
export const MAX_HEAD_BYTES = 16 * 1024;
export const RUNTIME_MAX_HEAD_BYTES = 64 * 1024;

/**
 * The head's size as sent, near enough: the target (Bun's absolute URL, a few bytes longer than the
 * request line's) and each header line. Header values are byte strings, so a length is a byte count.
 */
export function headBytes(request: Request): number {
  let bytes = request.url.length;
  // forEach, not an iterator: no [name, value] array per header on every request.
  request.headers.forEach((value, name) => {
    bytes += name.length + value.length + 4;
  });
  return bytes;
}
