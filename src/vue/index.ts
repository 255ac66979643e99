/**
 * Vue types for the elements (`GlobalComponents`), so templates type-check under `strictTemplates`:
 * properties and attributes as props, `@esign-authenticated` and the other events with their detail.
 * `import type {} from 'esign-elements/vue'` once (in `env.d.ts`, say); the elements still need
 * `compilerOptions.isCustomElement: (tag) => tag.startsWith('esign-')` for Vue's compiler.
 */
import type { DefineComponent } from 'vue';
import type { EsignElementSpecs } from '../types/element-props.js';

/** The events as Vue emits, which type the handler of `@esign-…` in templates. */
type Emits<N extends keyof HTMLElementEventMap> = { [K in N]: (event: HTMLElementEventMap[K]) => void };

export type EsignVueComponents = {
  [Tag in keyof EsignElementSpecs]: DefineComponent<EsignElementSpecs[Tag]['props'], {}, {}, {}, {}, {}, {}, Emits<EsignElementSpecs[Tag]['events']>>;
};

declare module 'vue' {
  interface GlobalComponents extends EsignVueComponents {}
}
