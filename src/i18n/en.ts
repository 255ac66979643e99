/** English strings: the source of every key, and the fallback of every language. */
export const en = {
  'error.refused': 'You declined on your phone. You can try again.',
  'error.expired': 'No confirmation came in time. Try again and confirm on your phone.',
  'error.not-a-user': 'This person has no account for the chosen method. Check the details or choose another method.',
  'error.not-qualified': 'Your account cannot give a qualified signature. Upgrade it in the app or use another method.',
  'error.certificate-timeout': 'Your certificate could not be fetched in time. Try again.',
  'error.invalid-input': 'Some details are not valid. Check them and try again.',
  'error.document-corrupted': 'The document is damaged or cannot be used.',
  'error.session-not-found': 'This session is no longer known. Start again.',
  'error.document-not-found': 'The document was not found.',
  'error.service-error': 'The service could not complete this. Try again in a moment.',
  'error.provider-error': 'The identity provider had a technical problem. Try again in a moment.',
  'error.service-unreachable': 'The service cannot be reached right now. Try again in a moment.',
  'error.network': 'The connection failed. Check your internet connection and try again.',
  'error.timeout': 'No answer came in time. Try again.',
  'error.unauthorized': 'This website is not set up correctly to use the service.',
  'error.not-permitted': 'This action is not allowed here.',
  'error.misconfigured': 'The service is not set up correctly. Contact the website.',
  'error.operation-not-allowed': 'This action is not available here.',
  'error.request-too-large': 'The file is too large to send.',
  'error.cancelled': 'Cancelled.',
  'error.unknown': 'Something went wrong. Try again.',
  'action.retry': 'Try again',
  'action.cancel': 'Cancel',
  'state.loading': 'Loading…',
};

export type StringKey = keyof typeof en;
export type Strings = Record<StringKey, string>;
