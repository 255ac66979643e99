import { defineConfig } from 'vite';
import vue from '@vitejs/plugin-vue';
import { esign } from 'esign-elements/vite';

// In development the proxy runs in front of the built-in sandbox; in production give it the
// service and the secret: esign({ baseUrl: process.env.ESIGN_BASE_URL, accessToken: process.env.ESIGN_ACCESS_TOKEN })
export default defineConfig({
  plugins: [vue({ template: { compilerOptions: { isCustomElement: (tag) => tag.startsWith('esign-') } } }), esign({ prefix: '/esign' })],
});
