<?php
declare(strict_types=1);

namespace Esign\Proxy\Steps;

use Esign\Proxy\Answer;
use Esign\Proxy\Exchange;
use Esign\Proxy\Step;
use Esign\Proxy\Visitor;

/** A session is polled and removed only by the visitor that started it (or the id its login gave that browser). */
final class Binding implements Step
{
    public const NAME = 'binding';

    public function run(Exchange $x): void
    {
        if ($x->role[0] !== 'status' && $x->role[0] !== 'remove') {
            return;
        }
        $x->bound = $x->state()->binding((string) $x->token);
        $bound = $x->bound;
        $mine = Visitor::key($x->visitor);
        $ok = $bound && (hash_equals((string) $bound['visitor'], $mine) || hash_equals((string) $bound['rotated_from'], $mine)) && (float) $bound['expires'] > microtime(true)
            && ($x->role[0] === 'status' ? $bound['status'] === $x->operation : $bound['channel'] === $x->role[1]);
        if (!$ok) {
            // answered as the service answers a token it does not know: nothing tells whether the session exists
            $unknown = $x->rules()->notYourSession;
            throw Answer::json(
                $unknown['status'],
                ['status' => 'error', 'message' => $unknown['message']] + ($x->role[0] === 'status' ? ['error_code' => $unknown['statusErrorCode']] : []),
                [],
                ['refused', ['reason' => 'not-your-session', 'status' => $unknown['status']]],
            );
        }
    }
}
