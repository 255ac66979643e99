<?php
declare(strict_types=1);

namespace Esign\Proxy\Steps;

use Esign\Proxy\Exchange;
use Esign\Proxy\Fields as Picked;
use Esign\Proxy\InvalidField;
use Esign\Proxy\Step;

/** The body, within its limit, as a JSON object; only the operation's own fields, of their types, go on. */
final class Fields implements Step
{
    public const NAME = 'fields';

    public function run(Exchange $x): void
    {
        $data = $x->request->body($x->bodyLimit + 1);
        if (strlen($data) > $x->bodyLimit) {
            throw $x->refuse('request-too-large');
        }
        try {
            $body = json_decode($data === '' ? 'null' : $data, false, 512, JSON_THROW_ON_ERROR);
        } catch (\JsonException) {
            $body = null;
        }
        if (!$body instanceof \stdClass) {
            throw $x->refuse('malformed-json');
        }
        try {
            $x->sent = Picked::pick($x->fields, $body);
        } catch (InvalidField $bad) {
            throw $x->refuse('invalid-field', ['field' => $bad->getMessage()]);
        }
        if ($x->role[0] === 'start' && ($bad = Picked::badStartField($x->sent, $x->rules())) !== null) {
            throw $x->refuse('invalid-field', ['field' => $bad]);
        }
    }
}
