import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_RATE_LIMITS } from '../../src/protocol/proxy-rules.js';
import { helpText } from '../../src/server/settings-help.js';
import { limitsExact } from '../../sandbox/src/check-proxy/checks/rules.js';

// A start limit's number is said once, in the rules. --help and check-proxy are made from them, and
// every sentence of the docs and the code's comments that states a start limit is read here against
// the rules: a changed limit with a stale sentence anywhere fails.

const { perPerson, perVisitor, perAddress } = DEFAULT_RATE_LIMITS;
const LIMITS = { person: perPerson, visitor: perVisitor, address: perAddress } as const;
const MINUTES = perPerson.windowMs / 60_000;

type Who = keyof typeof LIMITS;
interface Stated {
  file: string;
  who: Who;
  limit: number;
  minutes: number | undefined;
  text: string;
}

const whoOf = (text: string): Who => (/person/i.test(text) ? 'person' : /visitor/i.test(text) ? 'visitor' : 'address');

/** Every start limit a text states by its number, and every one it states in words (which cannot be checked). */
export function statedLimits(file: string, raw: string): { stated: Stated[]; inWords: string[] } {
  // one line of prose: comment stars and line breaks gone
  const text = raw.replace(/\n\s*(\*|\/\/)?\s*/g, ' ');
  const stated: Stated[] = [];
  const add = (who: string, limit: string, minutes: string | undefined, match: string) =>
    stated.push({ file, who: whoOf(who), limit: Number(limit), minutes: minutes === undefined ? undefined : Number(minutes), text: match });
  // "Per person, 6 in 10 minutes", "Per person (default 6 in 10 minutes)", "Per visitor (12)", "per network address, 60 starts in 10 minutes"
  for (const m of text.matchAll(/\bper (person|visitor|(?:network )?address)(?:,| \((?:default )?)\s*(\d+)(?: starts)?(?: in (\d+) min)?/gi))
    add(m[1]!, m[2]!, m[3], m[0]);
  // "12 per visitor", "6 starts per person"
  for (const m of text.matchAll(/\b(\d+) (?:starts )?per (person|visitor|(?:network )?address)\b/gi)) add(m[2]!, m[1]!, undefined, m[0]);
  // the checklist's table: "| starts per person | 6 in 10 min |"
  for (const m of text.matchAll(/\| starts per (person|visitor|address) \| (\d+) in (\d+) min \|/g)) add(m[1]!, m[2]!, m[3], m[0]);
  const inWords = [...text.matchAll(/\b(six|twelve|sixty)\b(?: \w+){0,3} (?:starts?|pushes|per (?:person|visitor|address))\b/gi)].map((m) => m[0]);
  return { stated, inWords };
}

function filesUnder(dir: string, ext: RegExp): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && ext.test(entry.name))
    .map((entry) => join(entry.parentPath, entry.name));
}

/** The docs (not the decisions: they are history) and the code a reader takes a number from. */
const SCANNED = [
  'README.md',
  ...filesUnder('docs', /\.md$/).filter((file) => !file.includes('decisions')),
  ...filesUnder('src', /\.ts$/),
  ...filesUnder('sandbox/src', /\.ts$/),
  ...filesUnder('php/src', /\.php$/),
  ...filesUnder('examples/readme', /\.ts$/),
];

describe("the start limits' numbers", () => {
  it('the reader finds a stale number, and a limit said in words', () => {
    const { stated, inWords } = statedLimits('a.md', '**Per person, 5 in 10 minutes.** Per visitor (12). at most six pushes; 60 per\n * address');
    assert.deepEqual(
      stated.map((s) => [s.who, s.limit, s.minutes]),
      [
        ['person', 5, 10],
        ['visitor', 12, undefined],
        ['address', 60, undefined],
      ],
    );
    assert.deepEqual(inWords, ['six pushes']);
  });

  it('every sentence that states a start limit states the rules’ number, in numerals', () => {
    const all = SCANNED.map((file) => statedLimits(file, readFileSync(file, 'utf8')));
    const stated = all.flatMap((s) => s.stated);
    // the places a reader takes them from: proxy.md, the checklist's table, the options' doc comment, the rules' own reasons
    for (const file of ['docs/proxy.md', 'docs/proxy-checklist.md', 'src/proxy/options.ts', 'src/protocol/proxy-rules.ts'])
      assert.ok(
        stated.some((s) => s.file === file),
        `${file} states a limit`,
      );
    assert.ok(stated.length >= 10, `${stated.length} statements found`);
    for (const s of stated) {
      assert.equal(s.limit, LIMITS[s.who].limit, `${s.file}: "${s.text}" (the rules: ${LIMITS[s.who].limit} per ${s.who})`);
      if (s.minutes !== undefined) assert.equal(s.minutes, MINUTES, `${s.file}: "${s.text}" (the rules: in ${MINUTES} minutes)`);
    }
    assert.deepEqual(
      all.flatMap((s, i) => s.inWords.map((words) => `${SCANNED[i]}: ${words}`)),
      [],
      'a limit in words cannot be checked: write the numeral',
    );
  });

  it('--help says the rules’ defaults', () => {
    const help = helpText();
    assert.ok(help.includes(`Default: ${perVisitor.limit} and ${perPerson.limit} in ${MINUTES} minutes, ${perAddress.limit} per address.`), help);
    assert.ok(help.includes(`e.g. ${perVisitor.limit},${perPerson.limit},${perPerson.windowMs / 1000}`));
  });

  it("check-proxy's rows state the rules' numbers (its copy of them is written from the rules)", () => {
    const limits = typeof limitsExact.rule === 'string' ? limitsExact.rule : '';
    assert.ok(
      typeof limits === 'string' &&
        limits.includes(`a person's ${perPerson.limit + 1}th start in ${MINUTES} minutes and a visitor's ${perVisitor.limit + 1}th`),
      limits,
    );
  });
});
