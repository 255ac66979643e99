<?php
declare(strict_types=1);

namespace Esign\Proxy\Steps;

use Esign\Proxy\Answer;
use Esign\Proxy\Exchange;
use Esign\Proxy\Step;

/** A poll sooner than the floor after the session's last one is answered waiting, unforwarded. */
final class PollFloor implements Step
{
    public const NAME = 'pollFloor';

    public function run(Exchange $x): void
    {
        if ($x->role[0] === 'status' && $x->state()->pollTooSoon((string) $x->token)) {
            throw Answer::waiting();
        }
    }
}
