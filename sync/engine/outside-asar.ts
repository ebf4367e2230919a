/**
 * Where a worker entry of a packaged app really lies. electron-builder packs the app into
 * `…/resources/app.asar` and puts what `asarUnpack` names beside it, at the same path under
 * `…/resources/app.asar.unpacked`. Worker threads cannot rely on Electron's asar support
 * (electron/electron#22446, #33216), so a worker is started from the unpacked copy; its imports
 * then resolve there too (the layout is checked by test/packaging/asar-layout.test.ts).
 *
 * Takes a file URL (import.meta.url) or a path; anything not inside an archive comes back as is.
 */
export const outsideAsar = (location: string): string =>
  location.replace(/\.asar(?=[/\\])/, '.asar.unpacked');
