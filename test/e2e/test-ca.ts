import { execFileSync } from 'node:child_process';
import { createHash, X509Certificate } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { join } from 'node:path';
import { scratchDir } from '../node/processes.js';

/*
 * TLS as a real site has it, made by the test: a certificate authority of its own and a server
 * certificate for 127.0.0.1 signed by it (the file nginx serves holds the chain). Each program of
 * the test trusts that CA as its own stack is told to: Chromium by the CA's key, the sites by
 * their stacks' variables, Java by a trust store.
 */

export interface TestCa {
  /** The CA's certificate (PEM file): what a client trusts. */
  caFile: string;
  /** The server's chain (its certificate, then the CA's) and its key, for nginx. */
  chainFile: string;
  keyFile: string;
  /** Chromium's flag that trusts chains through this CA's key. */
  chromiumArg: string;
  /** The environment a site's process needs to trust the CA: Python, Ruby, Go, Node and Java alike. */
  siteEnv: Record<string, string>;
}

const openssl = (args: string[], cwd: string) => execFileSync('openssl', args, { cwd, stdio: ['ignore', 'ignore', 'pipe'] });

export function testCa(): TestCa {
  const dir = scratchDir('esign-ca-');
  openssl(
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:P-256',
      '-nodes',
      '-days',
      '2',
      '-subj',
      '/CN=esign test CA',
      '-keyout',
      'ca.key',
      '-out',
      'ca.pem',
    ],
    dir,
  );
  writeFileSync(join(dir, 'server.ext'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\nbasicConstraints=CA:FALSE\n');
  openssl(
    ['req', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-subj', '/CN=127.0.0.1', '-keyout', 'server.key', '-out', 'server.csr'],
    dir,
  );
  openssl(
    ['x509', '-req', '-in', 'server.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-days', '2', '-extfile', 'server.ext', '-out', 'server.pem'],
    dir,
  );
  const caPem = readFileSync(join(dir, 'ca.pem'), 'utf8');
  writeFileSync(join(dir, 'chain.pem'), readFileSync(join(dir, 'server.pem'), 'utf8') + caPem);
  const spki = createHash('sha256')
    .update(new X509Certificate(caPem).publicKey.export({ type: 'spki', format: 'der' }))
    .digest('base64');
  execFileSync(
    'keytool',
    ['-importcert', '-noprompt', '-alias', 'esign-test-ca', '-file', 'ca.pem', '-keystore', 'trust.p12', '-storetype', 'PKCS12', '-storepass', 'esign-test'],
    {
      cwd: dir,
      stdio: 'ignore',
    },
  );
  const caFile = join(dir, 'ca.pem');
  return {
    caFile,
    chainFile: join(dir, 'chain.pem'),
    keyFile: join(dir, 'server.key'),
    chromiumArg: `--ignore-certificate-errors-spki-list=${spki}`,
    siteEnv: {
      SSL_CERT_FILE: caFile,
      REQUESTS_CA_BUNDLE: caFile,
      NODE_EXTRA_CA_CERTS: caFile,
      JDK_JAVA_OPTIONS: `-Djavax.net.ssl.trustStore=${join(dir, 'trust.p12')} -Djavax.net.ssl.trustStorePassword=esign-test -Djavax.net.ssl.trustStoreType=PKCS12`,
    },
  };
}

export interface TlsAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A request over https trusting the test's CA alone (this process's fetch trusts the system's). */
export function httpsRequest(url: string, ca: TestCa, init: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<TlsAnswer> {
  return new Promise((resolve, reject) => {
    const sent = request(url, { method: init.method ?? 'GET', headers: init.headers ?? {}, ca: readFileSync(ca.caFile) }, (answer) => {
      let body = '';
      answer.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      answer.on('end', () => resolve({ status: answer.statusCode ?? 0, headers: answer.headers, body }));
    });
    sent.on('error', reject);
    sent.end(init.body);
  });
}
