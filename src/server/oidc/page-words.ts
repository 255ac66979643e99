/*
 * The hosted login page's own words in the five languages; the widget on it speaks its own.
 * Names of sites are never inflected: every language uses the label form ("Prisijungimas: …").
 */

export const PAGE_LANGUAGES = ['lt', 'lv', 'et', 'ru', 'en'] as const;
export type PageLanguage = (typeof PAGE_LANGUAGES)[number];

/** What a refusal without a redirect is, in a person's terms. */
export type RefusalKind = 'site-not-set-up' | 'request-unusable';

export interface PageWords {
  /** The language's own name, for the switch. */
  name: string;
  title: (site: string) => string;
  /** The title when the site registered no name. */
  titleNoName: string;
  back: (site: string) => string;
  backNoName: string;
  languages: string;
  expired: string;
  expiredHint: string;
  failed: string;
  refusal: Record<RefusalKind, string>;
  technical: string;
  /** The way back when the site is known: a link to it. */
  toSite: (site: string) => string;
  /** The way back when it is not: the browser's previous page. */
  previous: string;
  methods: string;
}

export const WORDS: Record<PageLanguage, PageWords> = {
  en: {
    name: 'English',
    title: (site) => `Log in to ${site}`,
    titleNoName: 'Log in',
    back: (site) => `Cancel and return to ${site}`,
    backNoName: 'Cancel and return to the site',
    languages: 'Language',
    expired: 'This login has ended',
    expiredHint: 'Go back to the site and start the login again.',
    failed: 'This login cannot continue',
    refusal: {
      'site-not-set-up': "This site is not set up for this login. Please contact the site's support.",
      'request-unusable': 'This login request cannot be used. Go back to the site and start the login again.',
    },
    technical: 'Technical details',
    toSite: (site) => `Go back to ${site}`,
    previous: 'Back to the previous page',
    methods: 'Log in with Smart-ID or Mobile-ID',
  },
  lt: {
    name: 'Lietuvių',
    title: (site) => `Prisijungimas: ${site}`,
    titleNoName: 'Prisijungimas',
    back: (site) => `Atšaukti ir grįžti: ${site}`,
    backNoName: 'Atšaukti ir grįžti į svetainę',
    languages: 'Kalba',
    expired: 'Šis prisijungimas baigėsi',
    expiredHint: 'Grįžkite į svetainę ir pradėkite prisijungimą iš naujo.',
    failed: 'Prisijungti nepavyko',
    refusal: {
      'site-not-set-up': 'Ši svetainė neprijungta prie prisijungimo paslaugos. Kreipkitės į svetainės pagalbą.',
      'request-unusable': 'Šios prisijungimo užklausos naudoti negalima. Grįžkite į svetainę ir pradėkite prisijungimą iš naujo.',
    },
    technical: 'Techninė informacija',
    toSite: (site) => `Grįžti: ${site}`,
    previous: 'Grįžti į ankstesnį puslapį',
    methods: 'Prisijungimas su Smart-ID arba Mobile-ID',
  },
  lv: {
    name: 'Latviešu',
    title: (site) => `Pieteikšanās: ${site}`,
    titleNoName: 'Pieteikšanās',
    back: (site) => `Atcelt un atgriezties: ${site}`,
    backNoName: 'Atcelt un atgriezties vietnē',
    languages: 'Valoda',
    expired: 'Šī pieteikšanās ir beigusies',
    expiredHint: 'Atgriezieties vietnē un sāciet pieteikšanos no jauna.',
    failed: 'Pieteikšanos nevar turpināt',
    refusal: {
      'site-not-set-up': 'Šī vietne nav iestatīta pieteikšanās pakalpojumam. Sazinieties ar vietnes atbalstu.',
      'request-unusable': 'Šo pieteikšanās pieprasījumu nevar izmantot. Atgriezieties vietnē un sāciet pieteikšanos no jauna.',
    },
    technical: 'Tehniskā informācija',
    toSite: (site) => `Atgriezties: ${site}`,
    previous: 'Atgriezties iepriekšējā lapā',
    methods: 'Pieteikšanās ar Smart-ID vai Mobile-ID',
  },
  et: {
    name: 'Eesti',
    title: (site) => `Sisselogimine: ${site}`,
    titleNoName: 'Sisselogimine',
    back: (site) => `Katkesta ja mine tagasi: ${site}`,
    backNoName: 'Katkesta ja mine tagasi saidile',
    languages: 'Keel',
    expired: 'See sisselogimine on lõppenud',
    expiredHint: 'Minge tagasi saidile ja alustage sisselogimist uuesti.',
    failed: 'Sisselogimist ei saa jätkata',
    refusal: {
      'site-not-set-up': 'See sait ei ole sisselogimisteenusega seadistatud. Pöörduge saidi klienditoe poole.',
      'request-unusable': 'Seda sisselogimise päringut ei saa kasutada. Minge tagasi saidile ja alustage sisselogimist uuesti.',
    },
    technical: 'Tehniline teave',
    toSite: (site) => `Mine tagasi: ${site}`,
    previous: 'Tagasi eelmisele lehele',
    methods: 'Sisselogimine Smart-ID või Mobiil-ID-ga',
  },
  ru: {
    name: 'Русский',
    title: (site) => `Вход: ${site}`,
    titleNoName: 'Вход',
    back: (site) => `Отменить и вернуться: ${site}`,
    backNoName: 'Отменить и вернуться на сайт',
    languages: 'Язык',
    expired: 'Этот вход завершён',
    expiredHint: 'Вернитесь на сайт и начните вход заново.',
    failed: 'Вход невозможно продолжить',
    refusal: {
      'site-not-set-up': 'Этот сайт не настроен для входа. Обратитесь в поддержку сайта.',
      'request-unusable': 'Этот запрос на вход нельзя использовать. Вернитесь на сайт и начните вход заново.',
    },
    technical: 'Техническая информация',
    toSite: (site) => `Вернуться: ${site}`,
    previous: 'Вернуться на предыдущую страницу',
    methods: 'Вход через Smart-ID или Mobile-ID',
  },
};
