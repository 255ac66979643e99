import type { NextConfig } from 'next';

const config: NextConfig = {
  // the example lives inside the repository; its root is here
  turbopack: { root: new URL('../..', import.meta.url).pathname },
};

export default config;
