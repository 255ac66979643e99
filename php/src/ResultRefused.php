<?php
declare(strict_types=1);

namespace Esign\Proxy;

/**
 * Thrown by the host's onResult when its site will not take this result (a person it does not
 * serve): the session ends for the browser with 409 site-refused and is not tried again. Any other
 * throw is tried again by the next poll.
 */
final class ResultRefused extends \Exception
{
    public function __construct(public readonly ?int $status = null)
    {
        parent::__construct($status === null ? 'the host refused the result' : "the host refused the result (HTTP $status)");
    }
}
