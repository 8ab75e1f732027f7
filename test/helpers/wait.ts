/**
 * Waiting for the event itself (a line on a stream, a process exit, an answer) with a deadline and a
 * message saying what did not happen, instead of sleeping for a time that guesses how fast the machine is.
 * No test-runner imports: bench/ uses these too.
 */

type What = string | (() => string);
const say = (what: What) => (typeof what === "string" ? what : what());

/** `promise`'s outcome, or an error "<what>: not within <ms> ms" once `ms` have passed. */
export async function within<T>(promise: Promise<T>, ms: number, what: What): Promise<T> {
  // Given up on, `promise` may still reject later: that is not an unhandled rejection.
  promise.catch(() => {});
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${say(what)}: not within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * For what announces itself nowhere (a port behind a proxy, another process's children): asks `check`
 * every `intervalMs` until it returns something other than undefined, and fails after `ms`.
 */
export async function pollUntil<T>(check: () => T | undefined | Promise<T | undefined>, options: { ms: number; intervalMs?: number; what: What }): Promise<T> {
  const deadline = performance.now() + options.ms;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (performance.now() >= deadline) throw new Error(`${say(options.what)}: not within ${options.ms} ms`);
    await Bun.sleep(options.intervalMs ?? 20);
  }
}

export interface StreamText {
  /** Everything read so far. */
  text(): string;
  /** Whether the stream has ended (the process closed it, usually by exiting). */
  ended(): boolean;
  /** Resolves once the stream has ended and all of it is read. */
  readonly done: Promise<void>;
  /**
   * The first value `find` returns for the text read so far, asked again as more arrives; fails when the
   * stream ends without it, or after `ms`, quoting the text read so far.
   */
  until<T>(find: (text: string) => T | undefined, ms: number, what: string): Promise<T>;
}

/** Reads a child process's stdout or stderr for its whole life (so the child never blocks on a full pipe). */
export function readStream(stream: ReadableStream<Uint8Array>): StreamText {
  let text = "";
  let ended = false;
  let changed = Promise.withResolvers<void>();
  const done = (async () => {
    const decoder = new TextDecoder();
    try {
      for await (const chunk of stream) {
        text += decoder.decode(chunk, { stream: true });
        changed.resolve();
        changed = Promise.withResolvers<void>();
      }
      text += decoder.decode();
    } finally {
      ended = true;
      changed.resolve();
    }
  })();
  return {
    text: () => text,
    ended: () => ended,
    done,
    async until<T>(find: (text: string) => T | undefined, ms: number, what: string): Promise<T> {
      const search = (async () => {
        for (;;) {
          const found = find(text);
          if (found !== undefined) return found;
          if (ended) throw new Error(`the stream ended without ${what}`);
          await changed.promise;
        }
      })();
      try {
        return await within(search, ms, what);
      } catch (error) {
        throw new Error(`${(error as Error).message}; it held:\n${text}`);
      }
    },
  };
}
