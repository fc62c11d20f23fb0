/**
 * The size rule of src/server (issue 34): a file a newcomer reads in one sitting, every line counted; a function that
 * fits on a screen. A function stays longer only where one long function is the clearest form (a feature's route plugin
 * registering each route in one place), and then says why: `// eslint-disable-next-line max-lines-per-function -- <why>`.
 */
export function size() {
  return [
    {
      files: ['src/server/**/*.ts'],
      ignores: ['src/server/**/*.test.ts'],
      rules: {
        'max-lines': ['error', { max: 400, skipBlankLines: false, skipComments: false }],
        'max-lines-per-function': ['error', { max: 60, skipBlankLines: true, skipComments: true }],
      },
    },
  ];
}
