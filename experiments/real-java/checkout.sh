# Sourced by the scripts that build the challenge's Java code from a checkout they do not ship.
# checkout_files CHECKOUT DEST: CHECKOUT's files under DEST, from a work tree or a bare git directory.
checkout_files() {
  if git -C "$1" rev-parse --is-bare-repository 2>/dev/null | grep -q true; then
    mkdir -p "$2" && git -C "$1" archive HEAD | tar x -C "$2"
  else
    cp -r "$1" "$2"
  fi
}
