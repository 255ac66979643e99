import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { NOT_YOUR_SESSION, PROXY_ANSWERS, proxyRulesDocument } from '../../src/protocol/proxy-rules.js';

// The PHP proxy answers its refusals by kind: the status and the words come from the rules file,
// never restated in its source, so a change of the rules changes both proxies.

const sources = ['php/src', 'php/src/Steps'].flatMap((dir) =>
  readdirSync(dir)
    .filter((name) => name.endsWith('.php'))
    .map((name) => ({ path: `${dir}/${name}`, text: readFileSync(`${dir}/${name}`, 'utf8') })),
);

describe("the PHP proxy's answers", () => {
  it('come from the rules file, which holds every kind with its status and words', () => {
    const document = proxyRulesDocument();
    assert.deepEqual(Object.keys(document.answers).sort(), Object.keys(PROXY_ANSWERS).sort());
    assert.deepEqual(document.answers['rate-limited'], { status: 429, message: PROXY_ANSWERS['rate-limited'][1] });
    assert.deepEqual(JSON.parse(readFileSync('php/proxy-rules.json', 'utf8')).answers, document.answers, 'the PHP copy is the rules of now');
    assert.deepEqual(document.notYourSession, NOT_YOUR_SESSION);
  });

  it('are refused by kind in the PHP source: no status number and no words of the rules restated', () => {
    assert.ok(sources.length > 20, `${sources.length} PHP files read`);
    const restated: string[] = [];
    for (const { path, text } of sources) {
      if (/->refuse\(\s*\d/.test(text) || /Answer::refusal\([^,]+,\s*\d/.test(text)) restated.push(`${path}: a status number in a refusal`);
      for (const [kind, [, message]] of Object.entries(PROXY_ANSWERS)) if (text.includes(message)) restated.push(`${path}: the words of ${kind}`);
      if (text.includes(NOT_YOUR_SESSION.message)) restated.push(`${path}: the words of not-your-session`);
    }
    assert.deepEqual(restated, []);
  });
});
