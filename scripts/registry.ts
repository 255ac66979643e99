// Makes the files that list the elements from src/registry.ts; with --check, fails when one of
// them differs from what the registry makes (CI runs the check through test/node/registry.test.ts).
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { BUNDLE_CEILINGS, REGISTRY, type ElementEntry } from '../src/registry.js';

// each element's events and attributes, as its class says them: the custom elements manifest
execFileSync(process.execPath, ['node_modules/@custom-elements-manifest/analyzer/cem.js', 'analyze', '--config', 'cem.config.mjs', '--quiet'], {
  stdio: 'ignore',
});
interface Declared {
  tagName?: string;
  events?: { name?: string }[];
  attributes?: { name: string; fieldName?: string }[];
}
// eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- the manifest the analyzer wrote just above
const manifest = JSON.parse(readFileSync('custom-elements.json', 'utf8')) as { modules: { declarations?: Declared[] }[] };
const declared = new Map(
  manifest.modules
    .flatMap((m) => m.declarations ?? [])
    .filter((d) => d.tagName)
    .map((d) => [d.tagName!, d]),
);
const declaration = (entry: ElementEntry): Declared => {
  const found = declared.get(`esign-${entry.name}`);
  if (!found) throw new Error(`custom-elements.json has no esign-${entry.name}`);
  return found;
};
/** Its events as React props: `esign-authenticated` → `onAuthenticated`. */
const eventsOf = (entry: ElementEntry): Record<string, string> =>
  Object.fromEntries(
    (declaration(entry).events ?? [])
      .map((event) => event.name)
      .filter((name): name is string => Boolean(name))
      .map((name) => [`on${name.replace(/^esign-/, '').replace(/(^|-)(\w)/g, (_, __, letter: string) => letter.toUpperCase())}`, name]),
  );
/** Its attributes with a dash, by the property each sets. */
const attributesOf = (entry: ElementEntry): Record<string, string> =>
  Object.fromEntries((declaration(entry).attributes ?? []).filter((a) => a.fieldName && a.fieldName !== a.name).map((a) => [a.name, a.fieldName!]));

const GENERATED = '// Made from src/registry.ts by `npm run registry`: change the registry, not this file.\n';
const tag = (entry: ElementEntry) => `esign-${entry.name}`;
const local = (entry: ElementEntry) => entry.className.replace(/^Esign/, '') + 'Element';
const classPath = (entry: ElementEntry, from: string) => `${from}elements/${entry.name}/${entry.name}.js`;
const quote = (text: string) => `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

function elementsFile(): string {
  const withEvents = REGISTRY.filter((e) => existsSync(`src/elements/${e.name}/events.ts`));
  return `${GENERATED}${REGISTRY.map((e) => `import { ${e.className} } from './${classPath(e, '')}';`).join('\n')}
// the event maps of every element, for a page (and its types) that imports the elements through this file
${withEvents.map((e) => `import './elements/${e.name}/events.js';`).join('\n')}

export { ${REGISTRY.map((e) => e.className).join(', ')} };

/** Every element of the package, by tag name. */
export const ELEMENTS: Record<string, CustomElementConstructor> = {
${REGISTRY.map((e) => `  '${tag(e)}': ${e.className},`).join('\n')}
};

declare global {
  interface HTMLElementTagNameMap {
${REGISTRY.map((e) => `    '${tag(e)}': ${e.className};`).join('\n')}
  }
}
`;
}

function allInOneFile(): string {
  const inside = REGISTRY.filter((e) => e.insideAllInOne);
  return `${GENERATED}// The elements of the all-in-one script-tag file (src/cdn.ts).
import type { ElementLoaders } from './internal/element/autoload.js';
${inside.map((e) => `import './elements/${e.name}/define.js';`).join('\n')}

/** Every other element's define entry by tag, loaded when the element appears on the page. */
export const ELEMENT_LOADERS: ElementLoaders = {
${REGISTRY.filter((e) => !e.insideAllInOne)
  .map((e) => `  '${tag(e)}': () => import('./elements/${e.name}/define.js'),`)
  .join('\n')}
};
`;
}

function reactFile(): string {
  const sorted = [...REGISTRY].sort((a, b) => a.name.localeCompare(b.name));
  const events = (e: ElementEntry) =>
    `{ ${Object.entries(eventsOf(e))
      .map(([prop, name]) => `${prop}: on('${name}')`)
      .join(', ')} }`;
  return `${GENERATED}/**
 * React components for every element (made with @lit/react): properties as props, \`esign-*\`
 * events as \`on…\` props (\`onAuthenticated\`, \`onError\`, …) that work after hydration too, \`ref\`
 * to the element. Importing this module registers the elements and brings the JSX types of the
 * elements themselves (\`<esign-identify onesign-authenticated={…}>\` in React 19).
 */
import * as React from 'react';
import { createComponent, type EventName } from '@lit/react';
import '../define.js';
import './jsx.js';
${sorted.map((e) => `import { ${e.className} as ${local(e)} } from '${classPath(e, '../')}';`).join('\n')}

// eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- @lit/react's name type for an event this package declares
const on = <K extends keyof HTMLElementEventMap>(name: K) => name as EventName<HTMLElementEventMap[K]>;

/** \`esign-signer-list\` → \`EsignSignerList\`, the component's name in React's tools. */
const displayName = (tag: string) => tag.replace(/(^|-)(\\w)/g, (_, __, letter: string) => letter.toUpperCase());

function component<I extends HTMLElement, E extends Record<string, EventName | string>>(tagName: string, elementClass: new () => I, events: E) {
  return createComponent({ react: React, tagName, elementClass, events, displayName: displayName(tagName) });
}

${REGISTRY.map((e) => `export const ${e.className} = component('${tag(e)}', ${local(e)}, ${events(e)});`).join('\n')}
`;
}

function propsFile(): string {
  const sorted = [...REGISTRY].sort((a, b) => a.name.localeCompare(b.name));
  const attributes = (e: ElementEntry) => {
    const pairs = Object.entries(attributesOf(e));
    return pairs.length ? `{ ${pairs.map(([attribute, property]) => `'${attribute}': '${property}'`).join('; ')} }` : '{}';
  };
  const events = (e: ElementEntry) => {
    const names = [...new Set(Object.values(eventsOf(e)))];
    return names.length ? names.map((name) => `'${name}'`).join(' | ') : 'never';
  };
  return `${GENERATED}/**
 * What each element takes in a framework's template, independent of the framework: its own
 * properties (list properties also in their attribute form), its attributes with a dash, and the
 * names of its events. React's JSX types and Vue's component types are made from this.
 */
import type { ElementSpec } from './element-spec.js';
${sorted.map((e) => `import type { ${e.className} } from '${classPath(e, '../')}';`).join('\n')}

export type { ElementAttributes, ElementProperties, ElementSpec, WithAttributeForm } from './element-spec.js';

export interface EsignElementSpecs {
${REGISTRY.map((e) => `  '${tag(e)}': ElementSpec<${e.className}, ${attributes(e)}, ${events(e)}>;`).join('\n')}
}
`;
}

function packageFile(current: string): string {
  // eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- the repository's own package.json
  const pkg = JSON.parse(current) as { exports: Record<string, unknown>; sideEffects: string[] };
  const entries = Object.entries(pkg.exports);
  const isElement = (key: string) => /^\.\/[a-z-]+$/.test(key) && !['./define', './client', './proxy', './react', './vue', './vite', './cdn'].includes(key);
  const before = entries.filter(([key]) => key === '.' || key === './define');
  const after = entries.filter(([key]) => key !== '.' && key !== './define' && !isElement(key));
  const elements = [...REGISTRY]
    .sort((a, b) => a.name.localeCompare(b.name))
    .map((e) => [`./${e.name}`, { types: `./dist/elements/${e.name}/define.d.ts`, default: `./dist/elements/${e.name}/define.js` }] as const);
  pkg.exports = Object.fromEntries([...before, ...elements, ...after]);
  pkg.sideEffects = [
    ...new Set([...pkg.sideEffects.filter((path) => !/define\b.*\*|\/define\//.test(path)), './src/elements/*/define.ts', './dist/elements/*/define.js']),
  ];
  return `${JSON.stringify(pkg, null, 2)}\n`;
}

function ceilingsFile(): string {
  const elements = REGISTRY.map((e) => [`${tag(e)}.js`, { bytes: e.ceiling.bytes, why: e.ceiling.why }] as const);
  const file = {
    about:
      "Made from src/registry.ts by npm run registry: do not edit. Ceilings in bytes, min+gzip (zlib level 9), of each script-tag file with what it imports statically, and of the client alone; npm run size fails over any of them. A ceiling's reason is one sentence; the CHANGELOG keeps what raised it.",
    ceilings: Object.fromEntries([...Object.entries(BUNDLE_CEILINGS), ...elements]),
  };
  return `${JSON.stringify(file, null, 2)}\n`;
}

/** What cannot be made but must agree: each element's folder and define entry. */
function agreement(): string[] {
  const problems: string[] = [];
  for (const e of REGISTRY) {
    const define = `src/elements/${e.name}/define.ts`;
    if (!existsSync(define)) problems.push(`${define} is missing`);
    else if (!readFileSync(define, 'utf8').includes(`defineElement(${quote(tag(e))}, ${e.className})`))
      problems.push(`${define} does not define ${tag(e)} as ${e.className}`);
  }
  for (const folder of readdirSync('src/elements')) {
    if (existsSync(`src/elements/${folder}/define.ts`) && !REGISTRY.some((e) => e.name === folder))
      problems.push(`src/elements/${folder} has a define entry but no registry line`);
  }
  return problems;
}

const files: [path: string, make: (current: string) => string][] = [
  ['src/elements.ts', elementsFile],
  ['src/all-in-one-elements.ts', allInOneFile],
  ['src/react/index.ts', reactFile],
  ['src/types/element-props.ts', propsFile],
  ['package.json', packageFile],
  ['size-ceilings.json', ceilingsFile],
];

const check = process.argv.includes('--check');
const drifted: string[] = [];
for (const [path, make] of files) {
  const current = existsSync(path) ? readFileSync(path, 'utf8') : '';
  const made = make(current);
  if (made === current) continue;
  if (check) drifted.push(`${path} differs from what src/registry.ts makes (npm run registry)`);
  else writeFileSync(path, made);
}
const problems = [...drifted, ...agreement()];
for (const problem of problems) console.error(problem);
if (problems.length) process.exit(1);
console.log(check ? 'the registry and its files agree' : `made ${files.length} files from src/registry.ts`);
