// next-auth v4's options: esign-proxy as a custom OpenID Connect provider, found by its discovery
// document (wellKnown), the code flow with PKCE and state, the ID token checked by next-auth's
// openid-client. A person is a country and a code: kept in next-auth's encrypted session cookie.
// read when the server runs (next build loads this file without the site's settings)
const issuer = (process.env.ESIGN_OIDC_ISSUER ?? '').replace(/\/+$/, '');

export const authOptions = {
  secret: process.env.SESSION_SECRET,
  session: { strategy: 'jwt' },
  providers: [
    {
      id: 'esign',
      name: 'Smart-ID or Mobile-ID',
      type: 'oauth',
      wellKnown: `${issuer}/.well-known/openid-configuration`,
      authorization: { params: { scope: 'openid profile nin', ui_locales: 'en' } },
      idToken: true,
      checks: ['pkce', 'state'],
      clientId: process.env.OIDC_CLIENT_ID,
      clientSecret: process.env.OIDC_CLIENT_SECRET,
      profile: (claims) => ({
        id: claims.sub,
        name: claims.name,
        country: claims.nin_issuing_country,
        code: claims.nin,
        givenName: claims.given_name,
        familyName: claims.family_name,
      }),
    },
  ],
  callbacks: {
    // at the login, the verified person into the session's token; after, the token as it is
    jwt: ({ token, user }) =>
      user ? { ...token, person: { country: user.country, code: user.code, name: user.givenName, surname: user.familyName } } : token,
    session: ({ session, token }) => ({ ...session, person: token.person }),
  },
};
