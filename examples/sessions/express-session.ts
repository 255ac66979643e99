/**
 * The verified person into the host's own session, with Express and express-session: the proxy's
 * `visitor` is the session's id, so a result comes back to the session that started it; `onResult`
 * writes the person into that session (a new session id, against fixation); `signer` lets that
 * person, and nobody else, sign.
 */
import express, { type Request } from 'express';
import session from 'express-session';
import { createProxyHandler, type Country } from 'esign-elements/proxy';

/** A person is a country and a code: the same digits in two countries are two people. */
interface Person {
  country: Country;
  code: string;
  name: string;
  surname: string;
}

declare module 'express-session' {
  interface SessionData {
    person?: Person;
  }
}

const regenerate = (req: Request) => new Promise<void>((resolve, reject) => req.session.regenerate((error) => (error ? reject(error) : resolve())));
const save = (req: Request) => new Promise<void>((resolve, reject) => req.session.save((error) => (error ? reject(error) : resolve())));

export function createApp(options: { baseUrl: string; accessToken: string; sessionSecret: string; store?: session.Store }): express.Express {
  const app = express();
  app.use(
    session({
      secret: options.sessionSecret,
      resave: false,
      saveUninitialized: true, // a session from the first request: the login is bound to it
      cookie: { httpOnly: true, sameSite: 'strict', secure: 'auto' },
      ...(options.store ? { store: options.store } : {}),
    }),
  );
  app.use(
    // typed by Express's Request: `request.raw` is the request the proxy was given, with its session
    createProxyHandler<Request>({
      baseUrl: options.baseUrl,
      accessToken: options.accessToken,
      prefix: '/esign',
      // `result.visitor` is this id; without the hook it would be a cookie of the proxy's own
      visitor: (request) => request.raw.sessionID,
      onResult: async (result) => {
        if (result.kind !== 'login') return;
        // `result.request.raw` is the poll that finished the login: the browser, and the session, that started it
        const req = result.request.raw;
        const { code, name, surname, country } = result.result;
        await regenerate(req);
        req.session.person = { code, name, surname, country };
        await save(req);
      },
      signer: (request) => {
        const person = request.raw.session.person;
        return person ? { country: person.country, code: person.code } : null;
      },
    }),
  );
  // what the server knows: the truth, whatever the browser's events said
  app.get('/me', (req, res) => {
    if (req.session.person) res.json(req.session.person);
    else res.status(401).json({ loggedIn: false });
  });
  return app;
}
