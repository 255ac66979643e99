/**
 * `npm run docs`: docs/reference.md from the Custom Elements Manifest (`custom-elements.json`,
 * written by the build): per element its attributes and properties, methods, events with their
 * detail types, slots, parts and custom properties; and the table of esign-proxy's settings in
 * docs/any-stack.md from their declarations. A test holds the checked-in pages to what this writes.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { settingsTable } from '../src/server/settings-help.js';

export const SETTINGS_PAGE = 'docs/any-stack.md';

/** A page with its settings table as the declarations make it. */
export const withSettingsTable = (page: string): string => page.replace(/<!-- settings:start -->[\s\S]*?<!-- settings:end -->/, settingsTable());

interface Described {
  name: string;
  description?: string;
  type?: { text: string };
  default?: string;
}
interface Member extends Described {
  kind: 'field' | 'method';
  privacy?: string;
  static?: boolean;
  readonly?: boolean;
  attribute?: string;
  parameters?: Described[];
  return?: { type?: { text: string } };
}
interface Declaration extends Described {
  tagName?: string;
  attributes?: (Described & { fieldName?: string })[];
  members?: Member[];
  events?: Described[];
  slots?: Described[];
  cssParts?: Described[];
  cssProperties?: Described[];
}
interface Manifest {
  modules: { declarations?: Declaration[] }[];
}

/** A table cell: one line, pipes escaped. */
const cell = (text = '') =>
  text
    .replace(/\s*\n\s*/g, ' ')
    .replace(/\|/g, '\\|')
    .trim();
const code = (text = '') => (text ? `\`${cell(text)}\`` : '');

function table(head: string[], rows: string[][]): string {
  if (!rows.length) return '';
  return [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`, ...rows.map((row) => `| ${row.join(' | ')} |`)].join('\n');
}

function section(title: string, body: string): string {
  return body ? `### ${title}\n\n${body}\n` : '';
}

function element(d: Declaration): string {
  const attributes = new Map((d.attributes ?? []).map((a) => [a.fieldName ?? a.name, a.name]));
  const visible = (m: Member) =>
    !m.static &&
    m.privacy !== 'private' &&
    m.privacy !== 'protected' &&
    !m.name.startsWith('_') &&
    !m.name.startsWith('#') &&
    !/@internal/.test(m.description ?? '');
  const fields = (d.members ?? []).filter((m) => m.kind === 'field' && visible(m) && m.description).sort((a, b) => a.name.localeCompare(b.name));
  const methods = (d.members ?? []).filter((m) => m.kind === 'method' && visible(m) && m.description).sort((a, b) => a.name.localeCompare(b.name));
  const parts = [
    `## \`<${d.tagName}>\`\n`,
    d.description ? `${cell(d.description)}\n` : '',
    section(
      'Properties and attributes',
      table(
        ['property', 'attribute', 'type', 'default', ''],
        fields.map((f) => [code(f.name), code(attributes.get(f.name) ?? f.attribute ?? ''), code(f.type?.text), code(f.default), cell(f.description)]),
      ),
    ),
    section(
      'Methods',
      table(
        ['method', ''],
        methods.map((m) => [
          code(`${m.name}(${(m.parameters ?? []).map((p) => p.name).join(', ')})${m.return?.type ? `: ${m.return.type.text}` : ''}`),
          cell(m.description),
        ]),
      ),
    ),
    section(
      'Events',
      table(
        ['event', 'type', ''],
        (d.events ?? []).filter((e) => e.name).map((e) => [code(e.name), code(e.type?.text), cell(e.description)]),
      ),
    ),
    section(
      'Slots',
      table(
        ['slot', ''],
        (d.slots ?? []).map((s) => [s.name ? code(s.name) : '(default)', cell(s.description)]),
      ),
    ),
    section(
      'Parts',
      table(
        ['part', ''],
        (d.cssParts ?? []).map((p) => [code(p.name), cell(p.description)]),
      ),
    ),
    section(
      'Custom properties',
      table(
        ['property', ''],
        (d.cssProperties ?? []).map((p) => [code(p.name), cell(p.description)]),
      ),
    ),
  ];
  return parts.filter(Boolean).join('\n');
}

/** The page for a manifest. */
export function referencePage(manifest: Manifest): string {
  const elements = manifest.modules
    .flatMap((m) => m.declarations ?? [])
    .filter((d) => d.tagName)
    .sort((a, b) => a.tagName!.localeCompare(b.tagName!));
  return [
    '# Reference',
    '',
    '*For developers who want every attribute, property, event, slot, part and custom property of each element in one place. Generated from `custom-elements.json` by `npm run docs`; do not edit by hand. How the elements behave: [elements.md](elements.md).*',
    '',
    elements.map((d) => `- [\`<${d.tagName}>\`](#${d.tagName})`).join('\n'),
    '',
    ...elements.map(element),
  ]
    .join('\n')
    .replace(/\n{3,}/g, '\n\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  // eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- the manifest the analyzer wrote in this build
  const manifest = JSON.parse(readFileSync('custom-elements.json', 'utf8')) as Manifest;
  writeFileSync('docs/reference.md', referencePage(manifest));
  writeFileSync(SETTINGS_PAGE, withSettingsTable(readFileSync(SETTINGS_PAGE, 'utf8')));
  console.log(`docs/reference.md and the settings table of ${SETTINGS_PAGE} written`);
}
