// Strips shell syntax from a title.
function clean(t) {
  return String(t).replace(/[`$<>|;&]/g, '');
}
module.exports = { clean };
if (require.main === module) console.log(clean(process.argv[2] || ''));
