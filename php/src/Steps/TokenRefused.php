<?php
declare(strict_types=1);

namespace Esign\Proxy\Steps;

use Esign\Proxy\Exchange;
use Esign\Proxy\Step;

/** The service refused the access token: nothing can work until the configuration is right (said once a minute). */
final class TokenRefused implements Step
{
    public const NAME = 'tokenRefused';

    public function run(Exchange $x): void
    {
        $x->tokenRefused = ($x->value->error_code ?? null) === 40003;
        if (!$x->tokenRefused) {
            return;
        }
        $x->event->decide('failed', ['failure' => 'access-token', 'status' => $x->status]);
        if ($x->state()->due('token-refused', 60)) {
            $x->log->say('the service refused the access token (40003) for ' . $x->operation . ': check ESIGN_ACCESS_TOKEN and ESIGN_BASE_URL');
        }
    }
}
