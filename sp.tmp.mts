import { measureSlowPhone, slowPhoneTable } from './bench/slow-phone.ts';
console.log(slowPhoneTable(await measureSlowPhone(7)));
