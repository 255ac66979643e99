<?php
declare(strict_types=1);

namespace Esign\Proxy\Steps;

use Esign\Proxy\Exchange;
use Esign\Proxy\Step;

/** JSON bodies only. */
final class ContentType implements Step
{
    public const NAME = 'contentType';

    public function run(Exchange $x): void
    {
        $type = strtolower(trim(explode(';', (string) $x->request->header('content-type'))[0]));
        if ($type !== 'application/json') {
            throw $x->refuse('unsupported-media-type');
        }
    }
}
