/**
 * The npm package's name (package.json `name`; test/package.test.ts keeps the two equal). The command is
 * `conform`, but the registry name `conform` belongs to an unrelated package, so everything a user
 * installs or runs with npx names this one.
 */
export const PACKAGE_NAME = 'agent-api-conform';
