import { existsSync, lstatSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Check, Prober } from '../prober.js';

/*
 * What a proxy keeps at rest, where its state is a file (the PHP proxy's SQLite): readable by the
 * proxy's own account alone, in a folder nobody else can write to, and holding nothing the check
 * sent or was given in clear: no personal code or phone, session token, visitor cookie or access token.
 */

/** The secrets of this run: what reached the service side (codes, phones), what came back (tokens, cookies), the token. */
function secretsOfTheRun({ probe, answers, accessToken }: Prober): Map<string, string> {
  const secrets = new Map<string, string>([[accessToken, 'the access token']]);
  for (const reached of probe.reached) {
    for (const [, field, value] of reached.body.matchAll(/"(code|phone)"\s*:\s*"([^"]{6,})"/g))
      if (value) secrets.set(value, field === 'code' ? 'a personal code' : 'a phone number');
  }
  for (const { answer } of answers) {
    const token = answer.json?.['token'];
    if (typeof token === 'string' && token.length >= 8) secrets.set(token, 'a session token');
    for (const line of answer.headers['set-cookie'] ?? []) {
      const value = /^[^=]+=([^;]*)/.exec(line)?.[1];
      if (value && value.length >= 8) secrets.set(value, "a cookie's value");
    }
  }
  return secrets;
}

/** The file and what SQLite keeps beside it (its write-ahead log and shared memory). */
const partsOf = (file: string) => [file, `${file}-wal`, `${file}-shm`, `${file}-journal`].filter((part) => existsSync(part));

export const stateAtRest: Check = {
  id: 'state-at-rest',
  rule: ({ options }) =>
    options.stateFile
      ? "the state file is open to the proxy's account alone, in a folder where no other account can replace it, and holds no personal code, phone, session token, visitor cookie or access token of this run in clear"
      : 'the state at rest: not checked (no --state-file given)',
  async run(prober) {
    const file = prober.options.stateFile;
    if (!file) return { skipped: "pass --state-file <file> when the proxy keeps its state in a file (the PHP proxy's SQLite file)" };
    if (!existsSync(file)) return `--state-file ${file}: no such file after the run`;
    for (const part of partsOf(file)) {
      const stat = lstatSync(part);
      if (!stat.isFile()) return `${part} is not a plain file (a link?)`;
      if (stat.mode & 0o077) return `${part} is open to other accounts (mode ${(stat.mode & 0o777).toString(8)}; 600 is its own account's alone)`;
    }
    const folder = lstatSync(dirname(file));
    if (folder.mode & 0o022 && !(folder.mode & 0o1000))
      return `${dirname(file)} is writable by other accounts (mode ${(folder.mode & 0o777).toString(8)}): another account could put a state file of its own there`;
    const secrets = secretsOfTheRun(prober);
    for (const part of partsOf(file)) {
      const bytes = readFileSync(part);
      for (const [secret, kind] of secrets) if (bytes.includes(secret)) return `${part} holds ${kind} of this run in clear`;
    }
    return null;
  },
};
