/** Lower-cases and joins words with dashes. */
function slugify(text) {
  return text.trim().toLowerCase().split(/\s+/).join('-');
}

module.exports = { slugify };
