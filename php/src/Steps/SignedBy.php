<?php
declare(strict_types=1);

namespace Esign\Proxy\Steps;

use Esign\Proxy\Exchange;
use Esign\Proxy\Person;
use Esign\Proxy\Signatures;
use Esign\Proxy\Step;

/** In depth: the one signature the service added in a gated signing must name the signed-in person. */
final class SignedBy implements Step
{
    public const NAME = 'signedBy';

    public function run(Exchange $x): void
    {
        if (($x->value->status ?? null) !== 'ok' || $x->role[0] !== 'status' || $x->part !== 'sign' || empty($x->bound['signer'])) {
            return;
        }
        $content = $x->value->file->content ?? null;
        $upload = empty($x->bound['upload']) ? null : json_decode((string) $x->bound['upload'], true);
        [$persons, $problem] = is_string($content) && is_array($upload) ? (new Signatures($x->rules()))->added($upload, (string) base64_decode($content)) : [null, 'cannot be read'];
        $named = array_map(static fn (array $p) => Person::digest($p[0], $p[1]), $persons ?? []);
        if (!in_array($x->bound['signer'], $named, true)) {
            $x->log->say('a finished ' . $x->operation . ($persons ? ' was signed by another person than the signer: not handed over' : " is not handed over: the signed file $problem"));
            throw $x->refuse('signer-mismatch');
        }
    }
}
