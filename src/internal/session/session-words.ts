import type { Channel, SessionKind } from '../../protocol/types.js';
import type { Language, StringKey } from '../../i18n/index.js';

type Translate = (key: StringKey, params?: Record<string, string | number>) => string;

/** What the status says: its heading, the line below it, and that line as a screen reader should say it. */
export interface StatusWords {
  heading: string;
  detail: string;
  spoken?: string;
  /** Said by no live region: what has the focus says it (the control code, the host's own success). */
  quiet?: boolean;
}

export const NO_WORDS: StatusWords = { heading: '', detail: '' };

/** What the waiting status needs of a session. */
export interface WaitingSession {
  channel: Channel;
  /** The person, masked (`3030••••914`, `+370••••666`). */
  who: string;
  subject: string;
  cameBack: boolean;
}

/** Between the waiting detail's items: a line may break before it, never after it (the separator goes with what follows). */
export const DETAIL_SEPARATOR = ' ·\u00a0';

/**
 * While waiting: the channel, the masked person and what is signed (`Smart-ID · 3030••••914 ·
 * contract.pdf`, said as `Smart-ID, personal code ending in 9 1 4, contract.pdf`); back on the
 * page before confirming, a short heading and where to finish.
 */
export function waitingWords(t: Translate, kind: SessionKind, { channel, who, subject, cameBack }: WaitingSession): StatusWords {
  if (cameBack)
    return {
      heading: t('status.back'),
      detail: t(channel === 'smartid' ? 'status.back.smartid' : kind === 'login' ? 'status.back.mobile.login' : 'status.back.mobile.sign'),
    };
  if (!who) return { heading: t('status.waiting'), detail: '' };
  // said as one phrase of the sentence ("personas kods, kas beidzas ar 0 0 9"), never a field's label with its capital
  const digits = who.slice(-3).split('').join(' ');
  const spokenWho = channel === 'mobile' ? t('status.spoken-phone', { prefix: who.slice(0, 4), digits }) : t('status.spoken-code', { digits });
  return {
    heading: t('status.waiting'),
    detail: [t(`channel.${channel}`), who, subject].filter(Boolean).join(DETAIL_SEPARATOR),
    ...(/\d{3}$/.test(who) ? { spoken: [t(`channel.${channel}`), spokenWho, subject].filter(Boolean).join(', ') } : {}),
  };
}

/** The connection while waiting: lost, said with the clock time by which to confirm (it stays true as the seconds pass), or back. */
export function connectionWords(t: Translate, language: Language, lost: boolean, deadline: number): string {
  if (!lost) return t('session.online');
  const time = new Date(deadline).toLocaleTimeString(language, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
  return t('session.offline', { time });
}

/** The heading of a failed session. */
export const failedHeading = (t: Translate, kind: SessionKind): string => t(kind === 'login' ? 'identify.failed' : 'sign.failed');
