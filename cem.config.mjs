/**
 * Custom Elements Manifest of the widget. Two fixes over what the analyzer finds on its own:
 * - events: only the `esign-*` events of the JSDoc and the code (the base class's generic
 *   `emit(name, …)` is not an event), each typed from the `HTMLElementEventMap` declarations;
 * - paths: modules point at the built files inside the package (`dist/….js`), not the sources.
 */
function eventTypesAndPaths() {
  const eventTypes = new Map();
  const toDist = (value) => (typeof value === 'string' ? value.replace(/^\/?src\/(.*)\.(ts|js)$/, 'dist/$1.js') : value);
  const rewrite = (node) => {
    if (Array.isArray(node)) return node.map(rewrite);
    if (node && typeof node === 'object') {
      for (const key of Object.keys(node)) node[key] = key === 'path' || key === 'module' ? toDist(node[key]) : rewrite(node[key]);
    }
    return node;
  };
  return {
    name: 'esign-event-types-and-paths',
    analyzePhase({ ts, node }) {
      if (!ts.isInterfaceDeclaration(node) || node.name.text !== 'HTMLElementEventMap') return;
      for (const member of node.members) {
        if (!ts.isPropertySignature(member) || !member.type) continue;
        const name = member.name.getText().replace(/^['"]|['"]$/g, '');
        eventTypes.set(name, member.type.getText());
      }
    },
    packageLinkPhase({ customElementsManifest }) {
      for (const mod of customElementsManifest.modules) {
        for (const declaration of mod.declarations ?? []) {
          if (!declaration.events) continue;
          declaration.events = declaration.events
            .filter((event) => typeof event.name === 'string' && event.name.startsWith('esign-'))
            .map((event) => {
              const type = eventTypes.get(event.name);
              return type ? { ...event, type: { text: type } } : event;
            });
        }
      }
      rewrite(customElementsManifest);
    },
  };
}

export default {
  globs: ['src/**/*.ts'],
  exclude: ['src/proxy/**', 'src/client/**', 'src/i18n/**', 'src/elements/*/define.ts', 'src/registry.ts', 'src/cdn.ts'],
  outdir: '.',
  litelement: true,
  plugins: [eventTypesAndPaths()],
};
