<?php
declare(strict_types=1);

namespace Esign\Proxy;

/**
 * One step of a request, named as the Node proxy's step of the same job (src/proxy/steps): it
 * reads and fills the exchange, and throws an Answer to answer early.
 */
interface Step
{
    public function run(Exchange $x): void;
}
