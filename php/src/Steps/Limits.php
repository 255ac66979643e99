<?php
declare(strict_types=1);

namespace Esign\Proxy\Steps;

use Esign\Proxy\Exchange;
use Esign\Proxy\Keys;
use Esign\Proxy\Person;
use Esign\Proxy\Step;
use Esign\Proxy\Visitor;

/**
 * Session starts per visitor, per address (when told) and per person (a country and a code), in
 * the Node proxy's order and under its counter names; over any of them, refused with the seconds to wait.
 */
final class Limits implements Step
{
    public const NAME = 'limits';

    /**
     * The counters a start counts under, in order, each by its scope: no code, visitor or address in clear.
     *
     * @return array<string, string>
     */
    public static function counters(string $channel, \stdClass $sent, string $visitor, ?string $address, array $countries): array
    {
        $keys = ['limit:visitor:' . Keys::store('cookie:' . $visitor) => 'visitor'];
        if ($address !== null) {
            $keys['limit:address:' . Keys::store(Keys::address($address))] = 'address';
        }
        $person = Person::key($channel, $sent, $countries);
        if ($person !== null) {
            $keys['limit:person:' . Keys::store($person)] = 'person';
        }
        return $keys;
    }

    public function run(Exchange $x): void
    {
        if ($x->role[0] !== 'start') {
            return;
        }
        $address = $x->settings->byAddress ? $x->request->remoteAddress : null;
        $limits = $x->settings->limits();
        foreach (self::counters($x->role[1], $x->sent, $x->visitor, $address, $x->rules()->countries) as $key => $scope) {
            $wait = $x->state()->overLimit($key, $limits[$scope]);
            if ($wait > 0) {
                $x->event->set('limit', $scope);
                throw $x->refuse('rate-limited', ['retry_after' => $wait], ["Retry-After: $wait"]);
            }
            if ($scope === 'person') {
                $x->counted[] = $key;
            }
        }
    }
}
