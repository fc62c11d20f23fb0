/**
 * One autocannon run in a process of its own, so the load generator never shares an event loop with the
 * server it measures. Input: a JSON argument { url, headers, seconds, connections }; output: one JSON line.
 */
import autocannon from 'autocannon';

interface LoadInput {
  url: string;
  headers: Record<string, string>;
  seconds: number;
  connections: number;
}

const input = JSON.parse(process.argv[2] ?? '{}') as LoadInput;
const latencies: number[] = [];
const result = await new Promise<autocannon.Result>((resolve, reject) => {
  const instance = autocannon(
    { url: input.url, headers: input.headers, duration: input.seconds, connections: input.connections },
    (error, done) => (error ? reject(error) : resolve(done)),
  );
  instance.on('response', (_client, _statusCode, _bytes, responseTime) => {
    latencies.push(responseTime);
  });
});
latencies.sort((a, b) => a - b);
const at = (q: number) =>
  latencies.length ? Number(latencies[Math.min(latencies.length - 1, Math.ceil(q * latencies.length) - 1)].toFixed(1)) : 0;
console.log(
  JSON.stringify({
    rps: Number((result.requests.total / input.seconds).toFixed(1)),
    p50_ms: at(0.5),
    p95_ms: at(0.95),
    requests: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  }),
);
