import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, existsSync } from 'node:fs';

// An element is whole in its folder: its class, its styles beside it (never inline), its define
// entry, and the children it draws declared once, in its class's `static dependencies`, which is
// the one way children are defined.

const ELEMENTS = readdirSync('src/elements').sort();
const source = (path: string) => readFileSync(path, 'utf8');
/** The code without its comments (a tag named in a comment is not drawn). */
const code = (path: string) =>
  source(path)
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/^\s*\/\/.*$/gm, '');
/** The package's tags a file's templates draw. */
const drawn = (path: string) => new Set([...code(path).matchAll(/<(esign-[a-z-]+)[\s>]/g)].map((m) => m[1]!));

/** The tags an element's class declares in `static dependencies`. */
function declared(path: string): Set<string> {
  const block = /static dependencies[^=]*=\s*\{([\s\S]*?)\n {2}\};/.exec(code(path))?.[1] ?? '';
  return new Set([...block.matchAll(/'(esign-[a-z-]+)':/g)].map((m) => m[1]!));
}

describe('an element in its folder', () => {
  it('declares every element it draws (its base class’s too) in static dependencies, and no other', () => {
    const sessionBase = drawn('src/internal/session/session-element.ts');
    assert.deepEqual([...sessionBase].sort(), ['esign-control-code', 'esign-person-form', 'esign-status'], 'what a session element draws');
    for (const name of ELEMENTS) {
      const file = `src/elements/${name}/${name}.ts`;
      const expected = new Set(drawn(file));
      if (/extends EsignSessionElement\b/.test(source(file))) for (const tag of sessionBase) expected.add(tag);
      expected.delete(`esign-${name}`);
      assert.deepEqual([...declared(file)].sort(), [...expected].sort(), `${file}: its static dependencies`);
    }
  });

  it('is defined one way: defineElement is called by define entries alone, which import no other element’s entry', () => {
    const callers = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true, recursive: true })
        .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
        .map((entry) => `${entry.parentPath}/${entry.name}`)
        .filter((path) => /\bdefineElement\(/.test(code(path)));
    const entries = callers('src')
      .filter((path) => !path.endsWith('/internal/element/define.ts'))
      .sort();
    assert.deepEqual(entries, ['src/define.ts', ...ELEMENTS.map((name) => `src/elements/${name}/define.ts`)].sort());
    for (const name of ELEMENTS) {
      const entry = code(`src/elements/${name}/define.ts`);
      assert.doesNotMatch(
        entry,
        /import\s+'\.\.\/[a-z-]+\/define\.js'/,
        `${name}/define.ts imports another element's entry (declare it in static dependencies)`,
      );
    }
  });

  it('keeps its styles beside it: none inline in its class file', () => {
    for (const name of ELEMENTS) {
      const file = `src/elements/${name}/${name}.ts`;
      assert.doesNotMatch(code(file), /\bcss`/, `${file} has styles of its own inline: they go in ${name}.styles.ts`);
      assert.ok(existsSync(`src/elements/${name}/define.ts`), `${name} has its define entry`);
    }
  });

  it('declares the events it fires in its own events.ts (on the element and the document alike); the ones every element may fire, once for all', () => {
    const declaredIn = (path: string) => {
      const text = existsSync(path) ? code(path) : '';
      const map = (name: string) =>
        new Set([...(new RegExp(`interface ${name} \\{([\\s\\S]*?)\\n  \\}`).exec(text)?.[1] ?? '').matchAll(/'(esign-[a-z-]+)'/g)].map((m) => m[1]!));
      return { element: map('HTMLElementEventMap'), document: map('DocumentEventMap') };
    };
    const shared = declaredIn('src/internal/element/shared-events.ts');
    assert.deepEqual([...shared.element].sort(), ['esign-cancelled', 'esign-error', 'esign-started']);
    assert.deepEqual([...shared.document].sort(), [...shared.element].sort());
    for (const name of ELEMENTS) {
      const folder = `src/elements/${name}`;
      const fired = new Set(
        readdirSync(folder)
          .filter((file) => file.endsWith('.ts') && file !== 'events.ts')
          .flatMap((file) => [...code(`${folder}/${file}`).matchAll(/(?:emit\(|new CustomEvent(?:<[^>]*>)?\()'(esign-[a-z-]+)'/g)].map((m) => m[1]!))
          .filter((event) => !shared.element.has(event)),
      );
      const own = declaredIn(`${folder}/events.ts`);
      assert.deepEqual([...own.element].sort(), [...fired].sort(), `${name}: the events it fires, declared in its events.ts`);
      assert.deepEqual([...own.document].sort(), [...fired].sort(), `${name}: the same events on the document`);
      if (fired.size) assert.match(code(`${folder}/define.ts`), /import '\.\/events\.js'/, `${name}/define.ts brings its events' types`);
      if (fired.size)
        assert.ok(
          code('src/elements.ts').includes(`import './elements/${name}/events.js';`),
          `src/elements.ts (every element, for src/define.ts and the package's main entry) brings ${name}'s events' types`,
        );
    }
  });

  it("is tried in the browsers: every element of the registry is drawn by a browser test's fixture", async () => {
    const { REGISTRY } = await import('../../src/registry.js');
    const tests = readdirSync('test/browser')
      .filter((file) => file.endsWith('.test.ts'))
      .map((file) => code(`test/browser/${file}`));
    const untried = REGISTRY.map((entry) => `esign-${entry.name}`).filter((tag) => !tests.some((test) => new RegExp(`<${tag}[\\s>]`).test(test)));
    assert.deepEqual(untried, [], 'elements no browser test draws');
    assert.deepEqual(REGISTRY.map((entry) => entry.name).sort(), ELEMENTS, 'the registry names every element folder');
  });
});
