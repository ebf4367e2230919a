import { afterEach, describe, expect, it, vi } from 'vitest';
import { builderOptions, signingFor } from '../../main/electron/dist';
import { builderRequire, resolvedBuilderConfig } from './builder-config';

/**
 * How `npm run dist` signs, resolved by electron-builder's own loader: a test build (no
 * certificate in the environment) and a release (a certificate: signed, and on macOS notarized).
 */
const certificate = { CSC_LINK: '/secrets/developer-id.p12', CSC_KEY_PASSWORD: 'pw' };
const appleId = {
  APPLE_ID: 'release@worktray.example',
  APPLE_APP_SPECIFIC_PASSWORD: 'abcd-efgh-ijkl-mnop',
  APPLE_TEAM_ID: 'ABCDE12345',
};
const apiKey = {
  APPLE_API_KEY: '/secrets/AuthKey_ABC.p8',
  APPLE_API_KEY_ID: 'ABC',
  APPLE_API_ISSUER: '69a6de7e-0000-0000-0000-000000000000',
};

type Resolved = {
  forceCodeSigning?: boolean;
  mac: { target: string[]; identity?: string | null; notarize?: boolean };
  electronFuses: { resetAdHocDarwinSignature?: boolean };
};

const resolvedFor = async (env: NodeJS.ProcessEnv) => {
  const signing = signingFor('darwin', env);
  if (!signing.ok) throw new Error(signing.reason);
  const options = builderOptions(signing.config);
  expect(options.publish).toBe('never');
  return (await resolvedBuilderConfig(options.config as object)) as unknown as Resolved;
};

describe('macOS signing, from the environment', () => {
  it('without a certificate: a test build, ad-hoc signed after the fuses, not forced', async () => {
    const c = await resolvedFor({});
    // electron-builder signs nothing, not even with an identity in the builder's keychain; the
    // fuses' reset leaves an ad-hoc signature, without which Apple Silicon kills the app.
    expect(c.mac.identity).toBeNull();
    expect(c.mac.target).toEqual(['dmg', 'zip']);
    expect(c.electronFuses.resetAdHocDarwinSignature).toBe(true);
    expect(c.forceCodeSigning).toBeUndefined();
    expect(c.mac.notarize).toBeUndefined();
    expect(signingFor('darwin', {})).toMatchObject({ note: expect.stringMatching(/ad-hoc/) });
  });

  it('with a certificate and notary credentials: a release, its signing forced', async () => {
    for (const notary of [appleId, apiKey, { APPLE_KEYCHAIN_PROFILE: 'worktray-notary' }]) {
      const c = await resolvedFor({ ...certificate, ...notary });
      expect(c.forceCodeSigning).toBe(true);
      expect(c.mac.identity).toBeUndefined(); // the certificate's, found by electron-builder
      expect(c.mac.notarize).not.toBe(false);
    }
    expect(
      (await resolvedFor({ CSC_NAME: 'Worktray Ltd (ABCDE12345)', ...apiKey })).forceCodeSigning,
    ).toBe(true);
  });

  it('a certificate without (complete) notary credentials: refused, naming what to set', () => {
    for (const notary of [
      {},
      { APPLE_ID: appleId.APPLE_ID },
      { ...apiKey, APPLE_API_ISSUER: '' },
    ]) {
      const signing = signingFor('darwin', { ...certificate, ...notary });
      expect(signing.ok).toBe(false);
      if (signing.ok) continue;
      expect(signing.reason).toContain('APPLE_API_KEY + APPLE_API_KEY_ID + APPLE_API_ISSUER');
      expect(signing.reason).toContain('APPLE_ID + APPLE_APP_SPECIFIC_PASSWORD + APPLE_TEAM_ID');
    }
    // Elsewhere nothing is notarized: the certificate alone is a release.
    expect(signingFor('win32', certificate)).toMatchObject({
      ok: true,
      config: { forceCodeSigning: true },
    });
    expect(signingFor('linux', {})).toMatchObject({ ok: true, config: {} });
  });

  describe("agrees with electron-builder's own reading of the notary credentials", () => {
    const { MacTargetHelper } = builderRequire('./out/mac/MacTargetHelper.js') as {
      MacTargetHelper: { getNotarizeOptions(appPath: string): object | undefined };
    };
    const names = [...Object.keys(appleId), ...Object.keys(apiKey), 'APPLE_KEYCHAIN_PROFILE'];
    afterEach(() => vi.unstubAllEnvs());

    it('each complete set is notarized by the builder; none is not', () => {
      for (const notary of [appleId, apiKey, { APPLE_KEYCHAIN_PROFILE: 'worktray-notary' }, {}]) {
        for (const name of names) vi.stubEnv(name, '');
        for (const [name, value] of Object.entries(notary)) vi.stubEnv(name, value);
        const builder = MacTargetHelper.getNotarizeOptions('/tmp/Worktray.app');
        expect(signingFor('darwin', { ...certificate, ...notary }).ok).toBe(builder !== undefined);
      }
    });
  });
});
