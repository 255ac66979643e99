<?php
/**
 * The verified person into PHP's own session ($_SESSION): onResult runs in the request of the poll
 * that finished the login (the browser that started it), so it starts that browser's session there,
 * with a new id against fixation; the signer hook lets that person, and nobody else, sign. Then the proxy.
 *
 * Run:  ESIGN_BASE_URL=... ESIGN_ACCESS_TOKEN=... ESIGN_STATE_FILE=... php -S 127.0.0.1:8080 session-recipe.php
 */
declare(strict_types=1);

require is_file(__DIR__ . '/vendor/autoload.php') ? __DIR__ . '/vendor/autoload.php' : __DIR__ . '/src/autoload.php';

use Esign\Proxy\Hooks;
use Esign\Proxy\Proxy;

session_set_cookie_params(['httponly' => true, 'samesite' => 'Strict', 'secure' => ($_SERVER['HTTPS'] ?? '') !== '' && ($_SERVER['HTTPS'] ?? '') !== 'off']);

// what the server knows: the truth, whatever the browser's events said
if (parse_url((string) ($_SERVER['REQUEST_URI'] ?? ''), PHP_URL_PATH) === '/me') {
    session_start(['read_and_close' => true]);
    header('content-type: application/json');
    header('cache-control: no-store');
    if (!isset($_SESSION['person'])) {
        http_response_code(401);
    }
    echo json_encode($_SESSION['person'] ?? ['loggedIn' => false]);
    return true;
}

return Proxy::serve(new Hooks(
    onResult: function (string $operation, string $token, string $visitor, stdClass $answer): void {
        if (!in_array($operation, ['mobileLoginStatus', 'smartIdLoginStatus'], true)) {
            return;
        }
        session_start();
        session_regenerate_id(true);
        $_SESSION['person'] = ['code' => $answer->code, 'name' => $answer->name, 'surname' => $answer->surname, 'country' => $answer->country];
        session_write_close();
    },
    signer: function (): ?array {
        session_start(['read_and_close' => true]);
        return isset($_SESSION['person']) ? ['country' => $_SESSION['person']['country'], 'code' => $_SESSION['person']['code']] : null;
    },
    gateSigning: true,
));
