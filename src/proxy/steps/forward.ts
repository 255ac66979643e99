import { proxyError, type ProxyAnswer } from '../errors.js';
import { fileAnswer } from '../file-answer.js';
import { isJsonContentType } from '../origin.js';
import type { UpstreamAnswer } from '../upstream.js';
import { OPERATIONS } from '../../protocol/operations.js';
import { REPEATABLE } from '../operation-kinds.js';
import type { Step, Has } from './exchange.js';
import { isRecord } from '../../protocol/checks.js';

function hasFields(fields: Record<string, unknown>): boolean {
  for (const _ in fields) return true;
  return false;
}

/**
 * Forward: the operation to the service with the checked fields and the access token (a GET's in
 * its query, added here, never in a URL the browser sees), in its telemetry span. A downloaded
 * file goes back as a file; any other answer must be a JSON object.
 */
export const forward: Step<'operation', 'service'> = (x, { upstream, token, tokenOnlyBody }) => {
  const { request, operation, path, telemetry } = x;
  const send = (headers: Record<string, string>) =>
    request.method === 'GET'
      ? upstream('GET', `${path}?access_token=${encodeURIComponent(token)}`, undefined, headers, REPEATABLE.has(operation.id))
      : upstream(
          request.method,
          path,
          hasFields(x.fields) ? JSON.stringify({ ...x.fields, access_token: token }) : tokenOnlyBody,
          headers,
          REPEATABLE.has(operation.id),
        );
  const answer = telemetry ? telemetry.call(request.method, operation.id, send) : send({});
  return answer.then((answered) => received(x, answered, token));
};

function received(x: Has<'operation'>, answer: UpstreamAnswer, token: string): ProxyAnswer | void {
  const { operation } = x;
  if (OPERATIONS[operation.id].answersFile && answer.status === 200 && !isJsonContentType(answer.contentType)) {
    return fileAnswer(answer, operation.params['documentId'] ?? 'document', token);
  }
  const text = answer.bytes.toString('utf8');
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return proxyError('upstream-invalid');
  }
  if (!isRecord(parsed)) return proxyError('upstream-invalid');
  x.service = { status: answer.status, text, value: parsed, body: text };
}
