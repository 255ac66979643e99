<?php
declare(strict_types=1);

namespace Esign\Proxy\Steps;

use Esign\Proxy\Exchange;
use Esign\Proxy\Step;

/** To the service with the access token; no redirect followed, within the rules' time, the answer read to its limit, JSON only. */
final class Forward implements Step
{
    public const NAME = 'forward';

    public function run(Exchange $x): void
    {
        $forward = clone $x->sent;
        $forward->access_token = $x->settings->token;
        $content = '';
        $tooLarge = false;
        $limit = $x->rules()->answerLimit;
        $curl = curl_init($x->settings->base . $x->path);
        curl_setopt_array($curl, [
            CURLOPT_CUSTOMREQUEST => $x->request->method,
            CURLOPT_POSTFIELDS => json_encode($forward, JSON_UNESCAPED_SLASHES),
            CURLOPT_HTTPHEADER => ['content-type: application/json', 'accept: application/json'],
            CURLOPT_FOLLOWLOCATION => false,
            CURLOPT_TIMEOUT_MS => (int) round($x->rules()->upstreamTimeout * 1000),
            CURLOPT_CONNECTTIMEOUT => 10,
            CURLOPT_ENCODING => '',
            CURLOPT_PROTOCOLS => CURLPROTO_HTTP | CURLPROTO_HTTPS,
            CURLOPT_WRITEFUNCTION => static function ($curl, string $chunk) use (&$content, &$tooLarge, $limit): int {
                if (strlen($content) + strlen($chunk) > $limit) {
                    $tooLarge = true;
                    return 0; // stops the transfer
                }
                $content .= $chunk;
                return strlen($chunk);
            },
        ]);
        $done = curl_exec($curl);
        $x->status = (int) curl_getinfo($curl, CURLINFO_RESPONSE_CODE);
        $errno = curl_errno($curl);
        curl_close($curl);
        if ($tooLarge) {
            throw $x->refuse('upstream-too-large');
        }
        if ($done === false) {
            throw $errno === CURLE_OPERATION_TIMEDOUT
                ? $x->refuse('upstream-timeout')
                : $x->refuse('upstream-unreachable');
        }
        if ($x->status >= 300 && $x->status < 400) {
            throw $x->refuse('upstream-redirect');
        }
        try {
            $value = json_decode($content, false, 512, JSON_THROW_ON_ERROR);
        } catch (\JsonException) {
            $value = null;
        }
        if (!$value instanceof \stdClass) {
            throw $x->refuse('upstream-invalid');
        }
        $x->value = $value;
    }
}
