import net from 'node:net';

/**
 * A TCP proxy that delays everything it forwards, both ways, by a delay (`setDelay`)
 * (order kept): a database that answers every statement one round trip
 * (2 × delayMs) late — a slow link or a throttled server, without touching
 * the code under test. Each round trip the server makes costs that much, so
 * work that takes many round trips shows.
 */
export async function latencyProxy(target: { host: string; port: number }, initialDelayMs: number) {
  let delayMs = initialDelayMs;
  const sockets = new Set<net.Socket>();
  const forward = (from: net.Socket, to: net.Socket) => {
    let last = 0;
    from.on('data', (chunk) => {
      const due = Math.max(Date.now() + delayMs, last);
      last = due;
      setTimeout(() => to.writable && to.write(chunk), Math.max(0, due - Date.now()));
    });
    from.on('end', () => setTimeout(() => to.end(), Math.max(0, last - Date.now())));
  };
  const server = net.createServer((client) => {
    const upstream = net.connect(target.port, target.host);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('error', () => undefined);
      s.on('close', () => {
        sockets.delete(s);
        client.destroy();
        upstream.destroy();
      });
    }
    forward(client, upstream);
    forward(upstream, client);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    port: (server.address() as net.AddressInfo).port,
    /** Changes the delay of what is forwarded from now on. */
    setDelay: (ms: number) => (delayMs = ms),
    close: () => {
      for (const s of sockets) s.destroy();
      return new Promise<void>((r) => server.close(() => r()));
    },
  };
}
