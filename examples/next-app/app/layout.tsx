import type { ReactNode } from 'react';

export const metadata = { title: 'esign-elements in Next.js', icons: { icon: 'data:,' } };

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body style={{ maxWidth: 560, margin: '0 auto', padding: 16, fontFamily: 'system-ui' }}>{children}</body>
    </html>
  );
}
