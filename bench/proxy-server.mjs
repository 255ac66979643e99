import { createServer } from 'node:http';
import { createProxyHandler } from '../dist/proxy/index.js';

// The built proxy in a process of its own for the throughput bench: `node bench/proxy-server.mjs <service-url> <token>`.
const [baseUrl, accessToken] = process.argv.slice(2);
const proxy = createProxyHandler({ baseUrl, accessToken, rateLimit: false });
const server = createServer((req, res) => {
  if (req.url === '/__rss') {
    res.end(String(process.memoryUsage().rss));
    return;
  }
  proxy(req, res);
});
server.listen(0, '127.0.0.1', () => console.log(`proxy on http://127.0.0.1:${server.address().port}`));
process.on('SIGINT', () => process.exit(0));
