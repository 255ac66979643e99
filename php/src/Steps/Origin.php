<?php
declare(strict_types=1);

namespace Esign\Proxy\Steps;

use Esign\Proxy\Exchange;
use Esign\Proxy\Step;

/** The host's own pages only: the Origin's host and scheme, or an allowed origin. */
final class Origin implements Step
{
    public const NAME = 'origin';

    public function run(Exchange $x): void
    {
        $host = (string) $x->request->header('host');
        $origin = $x->request->header('origin');
        $schemes = $x->settings->scheme !== '' ? [$x->settings->scheme]
            : ($x->request->https ? ['https'] : (preg_match('/^(?:localhost|127(?:\.\d{1,3}){3}|\[::1\])(?::\d+)?$/Di', $host) ? ['https', 'http'] : ['https']));
        if (in_array($origin, $x->settings->origins, true)) {
            return;
        }
        $crossSite = $x->request->header('sec-fetch-site') === 'cross-site';
        $parts = $origin === null ? null : explode('://', $origin, 2);
        $foreign = $parts !== null && (count($parts) !== 2 || $parts[1] !== $host || !in_array($parts[0], $schemes, true));
        if ($crossSite || $foreign) {
            throw $x->refuse('cross-site');
        }
    }
}
