import ts from 'typescript';
import { compileLitTemplates as litTemplateCompiler } from '@lit-labs/compiler';
import type { Plugin } from 'vite';

/**
 * The script-tag files' templates prepared at build time by Lit's own template compiler
 * (`@lit-labs/compiler`): each html`` of our sources becomes the template lit-html would have
 * prepared in the browser on its first render (its HTML with the parts' markers, and the parts),
 * so a slow phone's first render skips that step. A template the compiler cannot prove safe to
 * compile is left as it was. Runs after minifyLitTemplates (the compiled HTML is the minified one),
 * on our own TypeScript only.
 */
export function compileLitTemplates(): Plugin {
  return {
    name: 'esign-compile-lit-templates',
    apply: 'build',
    transform(code, id) {
      if (!/[\\/]src[\\/].*\.ts$/.test(id) || id.includes('node_modules') || !code.includes('html`')) return null;
      const out = ts.transpileModule(code, {
        fileName: id,
        compilerOptions: {
          target: ts.ScriptTarget.ES2022,
          module: ts.ModuleKind.ESNext,
          experimentalDecorators: true,
          useDefineForClassFields: false,
          verbatimModuleSyntax: false,
          sourceMap: false,
        },
        transformers: { before: [litTemplateCompiler()] },
      });
      return { code: out.outputText, map: null };
    },
  };
}
