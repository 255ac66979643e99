import { measureProxyThroughput, throughputTable } from './proxy-throughput.js';

/** `npm run bench:proxy-throughput`: status polls through the proxy beside a bare pass-through, alone (after `npm run build`), about four minutes. */
console.log(throughputTable(await measureProxyThroughput()));
