<?php
declare(strict_types=1);

namespace Esign\Proxy;

/** A place for the state this proxy will not keep it in; its message is the browser's. */
final class StateRefused extends \Exception
{
}
