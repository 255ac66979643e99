import { parseArgs } from 'node:util';
import { runCheckProxy } from './check-proxy/cli.js';
import { DEFAULT_ACCESS_TOKEN, startSandbox } from './server.js';
import { PERSONAS } from './personas.js';

const HELP = `esign-sandbox: the identity, signing and document service, for development and tests

  --port <n>               port to listen on (default 8787; 0 picks a free one)
  --host <addr>            address to listen on (default 127.0.0.1)
  --access-token <t>       the access token it accepts (default ${DEFAULT_ACCESS_TOKEN})
  --answer-after <ms>      how long a person takes to answer (default 3000)
  --slow-answer-after <ms> how long the slow identity takes (default 60000)
  --minute <ms>            length of a minute for temporary links (default 60000)
  --data-dir <dir>         keep documents in this directory (default: memory only)
  --public-url <url>       base URL of invitation and signing links (default: the address the
                           sandbox listens on, never the request's Host)
  --link-form <single|list> answer form of temporary links (default single)
  --widget-dir <dir>       the widget's script-tag files for the signing pages
                           (default: the esign-elements package installed beside it)
  --personas               print the test identities and exit
  check-proxy <proxy-url>  check a host's proxy against the proxy checklist (--help for its flags)
  --help                   this text`;

if (process.argv[2] === 'check-proxy') {
  process.exit(await runCheckProxy(process.argv.slice(3)));
}

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '8787' },
    host: { type: 'string', default: '127.0.0.1' },
    'access-token': { type: 'string', default: DEFAULT_ACCESS_TOKEN },
    'answer-after': { type: 'string', default: '3000' },
    'slow-answer-after': { type: 'string', default: '60000' },
    minute: { type: 'string', default: '60000' },
    'data-dir': { type: 'string' },
    'public-url': { type: 'string' },
    'link-form': { type: 'string', default: 'single' },
    'widget-dir': { type: 'string' },
    personas: { type: 'boolean', default: false },
    help: { type: 'boolean', default: false },
  },
});

const number = (name: string, value: string | undefined): number => {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 0) {
    console.error(`--${name} must be a whole number, got ${value}`);
    process.exit(2);
  }
  return parsed;
};

if (values.help) {
  console.log(HELP);
} else if (values.personas) {
  for (const p of PERSONAS) {
    console.log([p.channel.padEnd(7), (p.phone ?? '').padEnd(13), p.code.padEnd(12), p.countries.join('/').padEnd(5), p.note].join('  '));
  }
} else {
  const running = await startSandbox({
    port: number('port', values.port),
    host: values.host,
    accessToken: values['access-token'],
    answerAfterMs: number('answer-after', values['answer-after']),
    slowAnswerAfterMs: number('slow-answer-after', values['slow-answer-after']),
    minuteMs: number('minute', values.minute),
    linkResponseForm: values['link-form'] === 'list' ? 'list' : 'single',
    ...(values['data-dir'] ? { dataDir: values['data-dir'] } : {}),
    ...(values['public-url'] ? { publicUrl: values['public-url'] } : {}),
    ...(values['widget-dir'] ? { widgetDir: values['widget-dir'] } : {}),
  });
  // a token chosen by the caller is theirs to know; only the public default is printed
  const token = values['access-token'] === DEFAULT_ACCESS_TOKEN ? `access token: ${DEFAULT_ACCESS_TOKEN}` : 'access token as given';
  console.log(`esign-sandbox listening on ${running.url} (${token})`);
  if (!running.sandbox.widgetDir) console.log('signing pages: no widget files found (install esign-elements beside it or pass --widget-dir)');
  const stop = () => void running.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
