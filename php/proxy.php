<?php
/**
 * The esign-elements proxy as a front controller a site drops in: PHP 8.2+ with curl and SQLite
 * (PDO), Composer or not.
 *
 * Run:  ESIGN_BASE_URL=https://service.example ESIGN_ACCESS_TOKEN=... ESIGN_STATE_FILE=/var/lib/site/esign.sqlite php -S 127.0.0.1:8080 proxy.php
 * Or as the front controller for /esign/ under php-fpm (nginx: location /esign/ { fastcgi_pass ...;
 * SCRIPT_FILENAME this file }), with the web server's own body limit (nginx client_max_body_size 80m).
 * Check it with:  npx esign-sandbox check-proxy http://127.0.0.1:8080/esign
 *
 * A site's own hooks (its session, the person it signs as): session-recipe.php.
 */
declare(strict_types=1);

require is_file(__DIR__ . '/vendor/autoload.php') ? __DIR__ . '/vendor/autoload.php' : __DIR__ . '/src/autoload.php';

return \Esign\Proxy\Proxy::serve();
