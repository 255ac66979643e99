/** Registers <esign-identify> and the elements it is made of; safe to import twice. */
import { EsignIdentify } from '../elements/identify/identify.js';
import { defineElement } from '../internal/define.js';
import { definedLater } from '../internal/session-later-load.js';
import './person-form.js';

// nothing to show before a session starts: defined once the form is on screen
definedLater.push(() => import('./control-code.js'), () => import('./status.js'));

defineElement('esign-identify', EsignIdentify);

export { EsignIdentify };
