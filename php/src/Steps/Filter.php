<?php
declare(strict_types=1);

namespace Esign\Proxy\Steps;

use Esign\Proxy\Exchange;
use Esign\Proxy\Fields;
use Esign\Proxy\Step;

/** The access token out of everything (the screening data goes out of the browser's answer at the end). */
final class Filter implements Step
{
    public const NAME = 'filter';

    public function run(Exchange $x): void
    {
        $x->value = Fields::redact($x->value, $x->settings->token);
    }
}
