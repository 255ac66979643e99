/*
 * What the benches' servers share (bench/proxy-server.mjs over loopback, bench/in-process/server.mjs
 * without a network): OpenTelemetry's SDK as a host registers it, and the bare pass-through.
 */

/** The SDK registered: spans batched to an exporter that drops them, metrics kept in memory. */
export async function registerOpenTelemetry() {
  const { trace, metrics } = await import('@opentelemetry/api');
  const { BasicTracerProvider, BatchSpanProcessor } = await import('@opentelemetry/sdk-trace-base');
  const { MeterProvider } = await import('@opentelemetry/sdk-metrics');
  const dropping = { export: (_spans, done) => done({ code: 0 }), shutdown: async () => undefined };
  trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new BatchSpanProcessor(dropping)] }));
  metrics.setGlobalMeterProvider(new MeterProvider());
}

/** The floor the proxy is measured against: no rules at all, the body and the access token to the service with the proxy's HTTP client. */
export function passThrough(upstream, accessToken) {
  return (req, res) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', async () => {
      const body = JSON.stringify({ ...JSON.parse(Buffer.concat(chunks).toString() || '{}'), access_token: accessToken });
      const answer = await upstream(req.method, req.url, body);
      res.writeHead(answer.status, { 'content-type': 'application/json' }).end(answer.bytes);
    });
  };
}
