// Module resolve hook: only imports of "fs" made from inside a
// conformance package get the shim; everything else resolves normally.
const shim = new URL('./fs-with-glob.mjs', import.meta.url).href;

export async function resolve(specifier, context, next) {
  const from = context.parentURL || '';
  if ((specifier === 'fs' || specifier === 'node:fs') &&
      (from.includes('/@modelcontextprotocol/conformance/') ||
       from.includes('/conformance-next/')))
    return { url: shim, shortCircuit: true };
  return next(specifier, context);
}
