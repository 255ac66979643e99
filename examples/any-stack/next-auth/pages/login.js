import { useEffect } from 'react';
import { signIn } from 'next-auth/react';

// next-auth starts a login by a POST with its CSRF token: this page makes it, then the browser goes to the provider's page
export default function Login() {
  useEffect(() => void signIn('esign', { callbackUrl: '/' }), []);
  return <p>Going to the login…</p>;
}
