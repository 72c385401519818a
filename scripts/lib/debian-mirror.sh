# Shared by scripts/build-test-image.sh and the integrations' fetch scripts (source it):
# find_mirror prints the URIs of this machine's apt configuration that point at the main Debian
# archive (deb822 .sources first, then one-line .list files), one per line; take the first. The
# mirror is read at run time so no host name is ever written into the repository.

# The first URI of each deb stanza for the main Debian archive (not -security/-updates/-backports).
find_mirror() {
  local file
  shopt -s nullglob
  for file in /etc/apt/sources.list.d/*.sources; do
    awk '
      function flush() {
        if (!found && types ~ /(^|[ \t])deb([ \t]|$)/ && uri != "" && uri !~ /security/ && enabled !~ /^(no|false)$/) {
          n = split(suites, s, /[ \t]+/)
          for (i = 1; i <= n; i++) if (!found && s[i] != "" && s[i] !~ /-(security|updates|backports)$/) { print uri; found = 1 }
        }
        types = ""; uri = ""; suites = ""; enabled = ""
      }
      /^[ \t]*#/ { next }
      /^[ \t]*$/ { flush(); next }
      {
        key = tolower($1); sub(/:$/, "", key)
        if (key == "types") { types = $0; sub(/^[^:]*:/, "", types) }
        else if (key == "uris") { uri = $2 }
        else if (key == "suites") { suites = $0; sub(/^[^:]*:/, "", suites) }
        else if (key == "enabled") { enabled = tolower($2) }
      }
      END { flush() }
    ' "$file"
  done
  for file in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
    [[ -f "$file" ]] || continue
    sed -E -e 's/#.*//' -e 's/\[[^]]*\]//' "$file" | awk '
      $1 == "deb" && $2 !~ /security/ && $3 !~ /-(security|updates|backports)$/ { print $2; exit }'
  done
}
