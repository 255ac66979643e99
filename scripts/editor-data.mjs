// Writes editor data from the Custom Elements Manifest: VS Code's HTML custom data and JetBrains web-types.
import { readFileSync, writeFileSync } from 'node:fs';

const manifest = JSON.parse(readFileSync('custom-elements.json', 'utf8'));
const pkg = JSON.parse(readFileSync('package.json', 'utf8'));

const elements = manifest.modules.flatMap((mod) => (mod.declarations ?? []).filter((d) => d.customElement && d.tagName).map((d) => ({ ...d, path: mod.path })));

/** `'a' | 'b'` → ['a', 'b'] when an attribute's type is a union of string literals. */
function literalValues(type) {
  const parts = (type?.text ?? '').split('|').map((part) => part.trim());
  return parts.length && parts.every((part) => /^'[^']*'$/.test(part)) ? parts.map((part) => part.slice(1, -1)).filter(Boolean) : [];
}

const describe = (element) =>
  [
    element.description ?? element.summary ?? '',
    element.events?.length ? `\n\nEvents: ${element.events.map((e) => e.name).join(', ')}` : '',
    element.cssParts?.length ? `\n\nParts: ${element.cssParts.map((p) => p.name).join(', ')}` : '',
  ].join('');

const vscode = {
  version: 1.1,
  tags: elements.map((element) => ({
    name: element.tagName,
    description: describe(element),
    attributes: (element.attributes ?? []).map((attribute) => ({
      name: attribute.name,
      description: attribute.description ?? '',
      ...(literalValues(attribute.type).length ? { values: literalValues(attribute.type).map((name) => ({ name })) } : {}),
    })),
  })),
};

const webTypes = {
  $schema: 'https://raw.githubusercontent.com/JetBrains/web-types/master/schema/web-types.json',
  name: pkg.name,
  version: pkg.version,
  'description-markup': 'markdown',
  contributions: {
    html: {
      elements: elements.map((element) => ({
        name: element.tagName,
        description: element.description ?? '',
        'doc-url': '',
        source: { module: `./${element.path}`, symbol: element.name },
        attributes: (element.attributes ?? []).map((attribute) => ({
          name: attribute.name,
          description: attribute.description ?? '',
          value: { type: attribute.type?.text ?? 'string', required: false },
        })),
        events: (element.events ?? []).map((event) => ({ name: event.name, description: event.description ?? '', type: event.type?.text })),
        css: {
          parts: (element.cssParts ?? []).map((part) => ({ name: part.name, description: part.description ?? '' })),
          properties: (element.cssProperties ?? []).map((property) => ({ name: property.name, description: property.description ?? '' })),
        },
      })),
    },
  },
};

writeFileSync('dist/vscode.html-custom-data.json', `${JSON.stringify(vscode, null, 2)}\n`);
writeFileSync('dist/web-types.json', `${JSON.stringify(webTypes, null, 2)}\n`);
console.log(`editor data for ${elements.length} elements`);
