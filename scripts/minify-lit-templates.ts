import ts from 'typescript';
import type { Plugin } from 'vite';

/**
 * Collapses the whitespace and comments of css`` template text, the spaces around `*` and `/`
 * after a number or a parenthesis (a calc(), never a selector's universal `*`), and the leading
 * zero of a fraction (`0.8` → `.8`).
 */
export function minifyCss(text: string): string {
  return text
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/\s+/g, ' ')
    .replace(/\s*([{};,>])\s*/g, '$1')
    .replace(/:\s+/g, ':')
    .replace(/;}/g, '}')
    .replace(/([\d)%]) ([*/]) /g, '$1$2')
    .replace(/ !important/g, '!important')
    .replace(/([^\d.\w-])0\.(\d)/g, '$1.$2');
}

/** A line break and its indentation renders as one space in HTML (there is no <pre> text in our templates). */
export function minifyHtml(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ');
}

interface Edit {
  start: number;
  end: number;
  text: string;
}

function templateParts(template: ts.TemplateLiteral): ts.Node[] {
  return ts.isNoSubstitutionTemplateLiteral(template) ? [template] : [template.head, ...template.templateSpans.map((span) => span.literal)];
}

/**
 * Vite plugin: the static text of Lit's html`` and css`` templates keeps its source
 * indentation through minification; this collapses it at build time, found with the
 * TypeScript parser so that nested templates and interpolations are left intact.
 */
export function minifyLitTemplates(): Plugin {
  return {
    name: 'esign-minify-lit-templates',
    apply: 'build',
    transform(code, id) {
      if (!/\/src\/.*\.ts$/.test(id) || !/\b(html|css)`/.test(code)) return null;
      const source = ts.createSourceFile(id, code, ts.ScriptTarget.Latest, true);
      const edits: Edit[] = [];
      const visit = (node: ts.Node): void => {
        if (ts.isTaggedTemplateExpression(node) && ts.isIdentifier(node.tag) && (node.tag.text === 'html' || node.tag.text === 'css')) {
          const minify = node.tag.text === 'css' ? minifyCss : minifyHtml;
          for (const part of templateParts(node.template)) {
            const start = part.getStart(source);
            const raw = code.slice(start, part.end);
            // keep the delimiters (` or } at the start, ` or ${ at the end)
            const open = raw.startsWith('`') || raw.startsWith('}') ? 1 : 0;
            const close = raw.endsWith('${') ? 2 : raw.endsWith('`') ? 1 : 0;
            const inner = raw.slice(open, raw.length - close);
            const text = minify(inner);
            if (text !== inner) edits.push({ start: start + open, end: part.end - close, text });
          }
        }
        ts.forEachChild(node, visit);
      };
      visit(source);
      if (!edits.length) return null;
      let out = code;
      for (const edit of edits.sort((a, b) => b.start - a.start)) out = out.slice(0, edit.start) + edit.text + out.slice(edit.end);
      return { code: out, map: null };
    },
  };
}
