<?php
declare(strict_types=1);

namespace Esign\Proxy\Steps;

use Esign\Proxy\Exchange;
use Esign\Proxy\Step;
use Esign\Proxy\Visitor;

/** A start binds its session to the visitor (a refused one gives the person's count back); a poll that ends it says so. */
final class Sessions implements Step
{
    public const NAME = 'sessions';

    public function run(Exchange $x): void
    {
        $answer = $x->value->status ?? null;
        if ($x->role[0] === 'start' && $answer === 'error') {
            // the service refused the start: no session; the person is not charged for it
            foreach ($x->counted as $key) {
                $x->state()->giveBack($key);
            }
        }
        if ($answer === 'ok' && $x->role[0] === 'start' && is_string($x->value->token ?? null)) {
            $x->state()->bind($x->value->token, Visitor::key($x->visitor), $x->role[1], $x->role[2], $x->person, $x->signerPerson, $x->upload);
            $x->event->decide('started');
        }
        if ($x->role[0] === 'status' && !empty($x->bound['person'])) {
            $x->event->set('person', json_decode((string) $x->bound['person'], true));
        }
        if ($x->role[0] === 'status' && $answer === 'error' && !$x->tokenRefused) {
            $x->state()->finished((string) $x->token);
            $x->event->decide('finished', ['outcome' => (string) ($x->value->error_code ?? 'error')]);
        }
    }
}
