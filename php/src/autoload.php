<?php
/**
 * The package's classes without Composer (a site that drops proxy.php in): PSR-4 under
 * Esign\Proxy\ from this folder. With Composer, vendor/autoload.php does the same.
 */
declare(strict_types=1);

spl_autoload_register(static function (string $class): void {
    $prefix = 'Esign\\Proxy\\';
    if (str_starts_with($class, $prefix)) {
        $file = __DIR__ . '/' . str_replace('\\', '/', substr($class, strlen($prefix))) . '.php';
        if (is_file($file)) {
            require $file;
        }
    }
});
