<?php
declare(strict_types=1);

namespace Esign\Proxy\Steps;

use Esign\Proxy\Exchange;
use Esign\Proxy\Keys;
use Esign\Proxy\Person;
use Esign\Proxy\Step;
use Esign\Proxy\Visitor as Visitors;

/** The proxy's own visitor id: `__Host-` over https (no subdomain can set it), adopted only when minted here. */
final class Visitor implements Step
{
    public const NAME = 'visitor';

    public function run(Exchange $x): void
    {
        $x->cookieName = Visitors::cookieName($x->request->https);
        $x->visitor = $x->request->cookies[$x->cookieName] ?? '';
        if (!Visitors::minted($x->visitor, $x->settings->visitorKey())) {
            $x->visitor = Visitors::mint($x->settings->visitorKey());
            $x->setVisitorCookie($x->visitor);
        }
        $x->event->set('visitor', Keys::visitorDigest($x->visitor, $x->settings->eventKey()));
        $x->person = $x->role[0] === 'start' ? Person::inEvents($x->sent, $x->settings->eventSecret) : null;
        if ($x->person !== null) {
            $x->event->set('person', $x->person);
        }
        if ($x->role[0] === 'start' && $x->settings->byAddress && $x->request->remoteAddress !== null) {
            $x->event->set('address', $x->request->remoteAddress);
        }
    }
}
