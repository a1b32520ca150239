#!/bin/sh
# Rebuilds embedded-app-sdk.js, the Discord Embedded App SDK (pinned in
# package.json and package-lock.json) with its dependencies bundled into
# one ES module, and LICENSES.txt, the licences of everything bundled.
# Run from this directory: ./build.sh (needs npm). It builds in a
# temporary folder, so nothing but the two files lands here (the folder
# is embedded in the binary as it is).
set -eu
here=$(pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp package.json package-lock.json "$work"
cd "$work"
npm ci --no-audit --no-fund
echo 'export { DiscordSDK, DiscordSDKMock } from "@discord/embedded-app-sdk";' > entry.mjs
node_modules/.bin/esbuild entry.mjs --bundle --format=esm --minify --legal-comments=eof --outfile="$here/embedded-app-sdk.js"
: > "$here/LICENSES.txt"
for p in @discord/embedded-app-sdk zod uuid eventemitter3 big-integer decimal.js-light lodash.transform; do
	f=$(ls "node_modules/$p" | grep -i -E '^licen' | head -1)
	printf '==== %s %s (%s)\n' "$p" "$(node -p "require('./node_modules/$p/package.json').version")" "$f" >> "$here/LICENSES.txt"
	cat "node_modules/$p/$f" >> "$here/LICENSES.txt"
	echo >> "$here/LICENSES.txt"
done
