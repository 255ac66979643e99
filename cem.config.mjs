export default {
  globs: ['src/**/*.ts'],
  exclude: ['src/sandbox/**', 'src/proxy/**', 'src/client/**', 'src/i18n/**'],
  outdir: '.',
  litelement: true,
};
