/**
 * JSX types for the elements themselves in React 19, which sets custom-element props as
 * properties and takes `on<event>` props for their events:
 * `<esign-identify endpoint="/esign" channels="smartid mobile" onesign-authenticated={…} />`.
 * Brought by `esign-elements/react`, or alone with `import type {} from 'esign-elements/react/jsx'`.
 * React does not attach `on<event>` props of server-rendered elements after hydration (react#35446):
 * there, use the components of `esign-elements/react` or a ref and addEventListener.
 */
import type * as React from 'react';
import type { EsignElementSpecs } from '../types/element-props.js';

type Events<N extends keyof HTMLElementEventMap> = { [K in N as `on${K}`]?: (event: HTMLElementEventMap[K]) => void };

export type EsignIntrinsicElements = {
  [Tag in keyof EsignElementSpecs]: React.DetailedHTMLProps<React.HTMLAttributes<EsignElementSpecs[Tag]['element']>, EsignElementSpecs[Tag]['element']> &
    EsignElementSpecs[Tag]['props'] &
    Events<EsignElementSpecs[Tag]['events']>;
};

declare module 'react' {
  namespace JSX {
    interface IntrinsicElements extends EsignIntrinsicElements {}
  }
}
