<?php
declare(strict_types=1);

namespace Esign\Proxy;

/** A rules file this package cannot keep (another version); its message says what to do. */
final class RulesRefused extends \Exception
{
}
