import { css, html, nothing } from 'lit';
import type { ValidationReport } from '../../protocol/types.js';
import type { Language, StringKey } from '../../i18n/index.js';
import { dateTimeWithZone } from '../../internal/data/date-time.js';
import type { ReadSignature } from './read-report.js';

const INDICATIONS = ['TOTAL_PASSED', 'INDETERMINATE', 'TOTAL_FAILED'];
const SUB_INDICATIONS = [
  'HASH_FAILURE',
  'SIG_CRYPTO_FAILURE',
  'FORMAT_FAILURE',
  'NO_CERTIFICATE_CHAIN_FOUND',
  'REVOKED',
  'EXPIRED',
  'NOT_YET_VALID',
  'SIGNED_DATA_NOT_FOUND',
  'TRY_LATER',
];

/** What the view needs of the element: its words and language. */
export interface ReportViewHost {
  readonly language: Language;
  t(key: StringKey, params?: Record<string, string | number>): string;
}

/** The signatures in plain words and the full technical report, folded away. */
export function renderReport(host: ReportViewHost, signatures: ReadSignature[], report: ValidationReport) {
  const t = (key: StringKey, params?: Record<string, string | number>) => host.t(key, params);
  const unknown = t('report.unknown');
  const time = (date: Date | null) => (date ? dateTimeWithZone(date, host.language) : unknown);
  // a technical name in plain words where they are known; the technical name stays in the full report
  const plain = (kind: 'format' | 'level', known: string, raw: string) => {
    // eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- the table has a key for each value of the closed list it is built from
    const key = `${kind}.${known}` as StringKey;
    const words = t(key);
    return words !== key ? words : raw || unknown;
  };
  const verdict = (signature: ReadSignature) => {
    // eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- the table has a key for each value of the closed list it is built from
    const indication = INDICATIONS.includes(signature.indication) ? t(`indication.${signature.indication}` as StringKey) : signature.indication || unknown;
    if (!signature.subIndication) return indication;
    // eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- the table has a key for each value of the closed list it is built from
    const sub = SUB_INDICATIONS.includes(signature.subIndication) ? t(`sub.${signature.subIndication}` as StringKey) : signature.subIndication;
    return `${indication}: ${sub}`;
  };
  const notes = (label: StringKey, list: string[]) =>
    list.length ? html`<dt>${t(label)}</dt><dd><ul class="notes">${list.map((note) => html`<li>${note}</li>`)}</ul></dd>` : nothing;
  return html`${
    signatures.length
      ? html`<ol class="links">
          ${signatures.map(
            (signature, index) => html`<li class="signature ${signature.indication}" part="signature">
              <h3>${t('report.signature', { n: index + 1 })}</h3>
              <dl>
                <dt>${t('report.verdict')}</dt>
                <dd><strong>${verdict(signature)}</strong></dd>
                <dt>${t('report.signed-by')}</dt>
                <dd>${signature.signedBy || unknown}</dd>
                <dt>${t('report.time')}</dt>
                <dd>${time(signature.signingTime)}</dd>
                <dt>${t('report.format')}</dt>
                <dd>${plain('format', signature.format.split('-')[0] ?? signature.format, signature.format)}</dd>
                <dt>${t('report.level')}</dt>
                <dd>${plain('level', signature.level, signature.level)}</dd>
                ${notes('report.errors', signature.errors)} ${notes('report.warnings', signature.warnings)}
              </dl>
            </li>`,
          )}
        </ol>`
      : nothing
  }
    <details>
      <summary>${t('report.raw')}</summary>
      <pre tabindex="0" aria-label=${t('report.raw')}>${technical(report)}</pre>
    </details>`;
}

/**
 * The service's report as it came, for an auditor: its times (epoch milliseconds in the service's
 * answer) as ISO 8601 dates in UTC, each value otherwise as sent.
 */
function technical(report: unknown): string {
  return JSON.stringify(
    report,
    (key, value: unknown) => (typeof value === 'number' && /time|date/i.test(key) && value > 1e11 && value < 1e14 ? new Date(value).toISOString() : value),
    2,
  );
}

export const reportStyles = css`
  .signature {
    border: 1px solid var(--_border);
    border-inline-start: 4px solid var(--_muted);
    border-radius: calc(var(--_radius) * 0.8);
    padding: 0.75rem var(--_space);
  }
  .signature.TOTAL_PASSED {
    border-inline-start-color: var(--_success);
  }
  .signature.TOTAL_FAILED {
    border-inline-start-color: var(--_danger);
  }
  dl {
    display: grid;
    grid-template-columns: minmax(7rem, auto) 1fr;
    gap: 0.25rem 0.9rem;
    margin: 0.5rem 0 0;
  }
  dt {
    color: var(--_muted);
  }
  @container (max-width: 26rem) {
    dl {
      grid-template-columns: 1fr;
    }
    dd + dt {
      margin-block-start: 0.4rem;
    }
  }
  /* a long value wraps between words; only a word wider than the box is broken */
  dd {
    margin: 0;
    overflow-wrap: break-word;
    min-inline-size: 0;
  }
  ul.notes {
    margin: 0.25rem 0 0;
    padding-inline-start: 1.2rem;
  }
  details summary {
    cursor: pointer;
    font-weight: 600;
    padding-block: 0.6rem;
  }
  pre {
    max-block-size: 20rem;
    overflow: auto;
    /* long values wrap: nothing of the report is cut off sideways */
    white-space: pre-wrap;
    overflow-wrap: anywhere;
    font-size: 0.8rem;
    background: var(--_bg-subtle);
    padding: 0.75rem;
    border-radius: calc(var(--_radius) * 0.8);
  }
`;
