import { measureSlowPhone, slowPhoneTable } from './slow-phone.js';

/**
 * `npm run bench:slow-phone`: the slow phone alone (after `npm run build`), a minute or so. To see
 * what the build's compiled templates give, build the script-tag files with ESIGN_COMPILE_TEMPLATES=0
 * and run it again.
 */
console.log(slowPhoneTable(await measureSlowPhone()));
