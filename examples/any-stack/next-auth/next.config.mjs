// esign-proxy's two URLs on this site (ESIGN_WEBHOOK_URL, ESIGN_SIGNER_URL) are its API routes
export default {
  poweredByHeader: false,
  rewrites: async () => [
    { source: '/esign-webhook', destination: '/api/esign-webhook' },
    { source: '/esign-signer', destination: '/api/esign-signer' },
  ],
};
