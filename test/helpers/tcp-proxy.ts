import type { Socket } from "bun";

/**
 * A TCP proxy on loopback in front of a server, for outages a clean stop does not show: `silence()` makes
 * it hold every byte in both directions while keeping the connections open, as a frozen server or a cut
 * network does (no FIN, no RST), so only a client's own timeout can end a call. `speak()` delivers what
 * was held and forwards again, as TCP does once the network heals: nothing is lost, so the protocol on
 * each connection stays in step.
 */
export interface TcpProxy {
  readonly port: number;
  silence(): void;
  speak(): void;
  stop(): void;
}

/** One end of a proxied connection: the socket it forwards to, and what that socket could not take yet. */
interface End {
  peer?: Socket<End>;
  /** Bytes for `peer` held while silent, or that came before it connected, or that it did not take at once. */
  backlog: Uint8Array[];
}

function forward(to: Socket<End> | undefined, from: End, bytes: Uint8Array, hold: boolean): void {
  if (!to || hold || from.backlog.length > 0) {
    from.backlog.push(new Uint8Array(bytes));
    return;
  }
  const written = to.write(bytes);
  if (written < bytes.byteLength) from.backlog.push(new Uint8Array(bytes.subarray(Math.max(0, written))));
}

/** What `from` holds for `to`, written as far as `to` takes it. */
function flush(to: Socket<End>, from: End): void {
  while (from.backlog.length > 0) {
    const bytes = from.backlog[0]!;
    const written = to.write(bytes);
    if (written < bytes.byteLength) {
      from.backlog[0] = bytes.subarray(Math.max(0, written));
      return;
    }
    from.backlog.shift();
  }
}

export async function startTcpProxy(upstreamPort: number): Promise<TcpProxy> {
  let silent = false;
  const open = new Set<Socket<End>>();
  const handlers = {
    data(socket: Socket<End>, bytes: Uint8Array) {
      forward(socket.data.peer, socket.data, bytes, silent);
    },
    // `socket` can take more: what its peer's side holds for it goes now.
    drain(socket: Socket<End>) {
      const peer = socket.data.peer;
      if (peer && !silent) flush(socket, peer.data);
    },
    close(socket: Socket<End>) {
      open.delete(socket);
      socket.data.peer?.end();
    },
    error(socket: Socket<End>) {
      socket.data.peer?.end();
    },
  };
  const server = Bun.listen<End>({
    hostname: "127.0.0.1",
    port: 0,
    socket: {
      ...handlers,
      async open(client) {
        client.data = { backlog: [] };
        open.add(client);
        const upstream = await Bun.connect<End>({ hostname: "127.0.0.1", port: upstreamPort, data: { peer: client, backlog: [] }, socket: handlers }).catch(
          () => undefined,
        );
        if (!upstream) return void client.end();
        open.add(upstream);
        client.data.peer = upstream;
        if (!silent) flush(upstream, client.data);
      },
    },
  });
  return {
    port: server.port,
    silence: () => void (silent = true),
    speak() {
      silent = false;
      for (const socket of open) if (socket.data.peer) flush(socket.data.peer, socket.data);
    },
    stop() {
      server.stop(true);
      for (const socket of open) socket.end();
    },
  };
}
