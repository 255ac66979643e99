<?php
declare(strict_types=1);

namespace Esign\Proxy;

/** A field of the wrong JSON type or shape; its message is the field's path. */
final class InvalidField extends \Exception
{
}
