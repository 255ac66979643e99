<?php
declare(strict_types=1);

namespace Esign\Proxy\Steps;

use Esign\Proxy\Exchange;
use Esign\Proxy\Person;
use Esign\Proxy\Signatures;
use Esign\Proxy\Step;

/** With the signing gate on, a signing starts only as the person signed in to the site (the signer hook). */
final class Signer implements Step
{
    public const NAME = 'signer';

    public function run(Exchange $x): void
    {
        if (!$x->hooks->gateSigning || $x->role[0] !== 'start' || !in_array($x->part, ['sign', 'hash'], true)) {
            return;
        }
        try {
            $who = ($x->hooks->signer)();
        } catch (\Throwable) {
            $x->log->say('signer() failed for ' . $x->operation);
            throw $x->refuse('host-error', ['hook' => 'signer']);
        }
        if ($who === null) {
            throw $x->refuse('signer-unknown');
        }
        $countries = $x->rules()->countries;
        if (($problem = Person::signerProblem($who, $countries)) !== null) {
            $x->log->say("signer() returned $problem, for {$x->operation}: return ['country' => ..., 'code' => ...] of the person signed in, or null");
            throw $x->refuse('host-error', ['hook' => 'signer']);
        }
        if (!Person::sameSigner($x->sent, $who, $countries)) {
            throw $x->refuse('signer-mismatch');
        }
        $x->signerPerson = Person::digest($who['country'], (string) $who['code']);
        if ($x->part === 'sign' && ($x->upload = (new Signatures($x->rules()))->uploadPrint($x->sent)) === null) {
            throw $x->refuse('invalid-field', ['field' => ($x->sent->type ?? '') . '.files']);
        }
    }
}
