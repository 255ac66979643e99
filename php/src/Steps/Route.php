<?php
declare(strict_types=1);

namespace Esign\Proxy\Steps;

use Esign\Proxy\Exchange;
use Esign\Proxy\State;
use Esign\Proxy\Step;

/** The operation, by method and path (nothing else is one: a query, an escape, another method), and its body limit. */
final class Route implements Step
{
    public const NAME = 'route';

    public function run(Exchange $x): void
    {
        $found = null;
        if (!preg_match('/[?#%\\\\]/', $x->path)) {
            foreach ($x->rules()->operations as $name => $op) {
                if ($x->request->method === $op['method'] && preg_match('#^' . $op['pattern'] . '$#D', $x->path, $match)) {
                    $found = [$name, $op, $match['token'] ?? $match['sessionId'] ?? null];
                    break;
                }
            }
        }
        if ($found === null) {
            throw $x->refuse('operation-not-allowed');
        }
        [$x->operation, $op, $x->token] = $found;
        [$x->fields, $x->role, $x->channel, $x->part] = [$op['fields'], $op['role'], $op['channel'], $op['kind']];
        $x->event->add(['operation' => $x->operation] + ($x->part !== null ? ['kind' => $x->part] : []) + ['channel' => $x->channel]);
        $x->state = State::open($x->settings, $x->log);
        $x->state->sweepIfDue(microtime(true));
        $x->bodyLimit = in_array($x->operation, $x->rules()->fileStarts, true) ? $x->rules()->bodyLimit : $x->rules()->sessionBodyLimit; // only signing carries files
        if ((int) ($x->request->header('content-length') ?? 0) > $x->bodyLimit) {
            throw $x->refuse('request-too-large', [], ['Connection: close']);
        }
    }
}
