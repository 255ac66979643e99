import type { PepsRecord, SanctionsRecord } from '../types.js';
import type { Persona } from '../personas.js';

/** Fictional screening records: invented names, places and lists; no real person. */
export function pepsRecords(persona: Persona, asked: boolean): PepsRecord[] {
  if (!asked || persona.screening !== 'pep') return [];
  return [
    {
      id: 910001,
      reference: 'SANDBOX-PEP-0001',
      first_name: persona.givenName,
      last_name: persona.surname,
      full_name: `${persona.givenName} ${persona.surname}`,
      political_position: 'Member of the Council of Examplia (fictional)',
      associates: { parent: 'EXAMPLE PARTY OF NOWHERE' },
      aka: `${persona.givenName[0]}. ${persona.surname}, P. TESTER`,
      date_of_birth: '01 Jan 1990',
      place_of_birth: 'Sampletown, Examplia',
      gender: 'male',
      country_of_origin: 'Examplia',
      country_of_activity: 'Examplia',
      search_created_at: '2026-01-15 09:30:00',
      date_of_death: '',
    },
  ];
}

export function sanctionsRecords(persona: Persona, asked: boolean): SanctionsRecord[] {
  if (!asked || persona.screening !== 'sanctions') return [];
  return [
    {
      id: 920001,
      reference: 'SANDBOX-SAN-0001',
      first_name: persona.givenName,
      last_name: persona.surname,
      full_name: `${persona.givenName} ${persona.surname}`,
      date_of_birth: '1990-01-01',
      place_of_birth: 'Mocksville, Fictonia',
      aka: 'S. TESTNUMBER, SANKCIJA',
      gender: 'female',
      document_number: 'X0000000',
      country_of_origin: 'Fictonia',
      type_sdn_or_entity: 'Individual',
      name_of_the_list: 'Sandbox Consolidated Fictional List',
      date_of_publication: '18 Apr 2024',
      date_of_publication_of_the_list: '2024-04-18',
      search_created_at: '2026-01-15 09:30:00',
      associates: { parent: 'FICTONIA TRADING (fictional)' },
      image_url: '',
      date_of_death: '',
    },
  ];
}
