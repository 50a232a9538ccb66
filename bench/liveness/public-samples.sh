#!/usr/bin/env bash
# Fills the public-sample cache that bench:liveness and test/liveness/passive/public-samples.test.ts read
# (never committed: see src/liveness/passive/README.md for the sources and their terms).
# Usage: bench/liveness/public-samples.sh <git dir of DoubangoTelecom/FaceLivenessDetection-SDK> <git dir of nvlong21/face_anti_spoofing> [out dir] [NUAA residue]
# (bare clones are fine). Out dir: $BIOSTATION_LIVENESS_PUBLIC, else .cache/liveness-public. NUAA residue
# (default 1): the NUAA files taken are those at listing positions r, r + 40, r + 80, ... (1-based); 21
# gives the second, disjoint subset used to check the two network views (README "Two views of the face").
set -euo pipefail
doubango=${1:?git dir of DoubangoTelecom/FaceLivenessDetection-SDK}
nuaa=${2:?git dir of nvlong21/face_anti_spoofing}
out=${3:-${BIOSTATION_LIVENESS_PUBLIC:-.cache/liveness-public}}
residue=${4:-1}
mkdir -p "$out/nuaa/client" "$out/nuaa/imposter"
for f in spoof genuine disguise deepfake; do
  git --git-dir="$doubango" show "607afe9:assets/images/$f.jpg" > "$out/doubango-$f.jpg"
done
# every 40th file of each NUAA folder listing (residue 1: the set measured in the README: 128 client, 188 imposter crops)
for kind in ClientFace ImposterFace; do
  dest=$([ "$kind" = ClientFace ] && echo client || echo imposter)
  git --git-dir="$nuaa" ls-tree -r --name-only 9f6ff86 | grep "^data/$kind/" | awk -v r="$((residue % 40))" 'NR%40==r' | while read -r f; do
    git --git-dir="$nuaa" show "9f6ff86:$f" > "$out/nuaa/$dest/$(echo "${f#data/}" | tr / _)"
  done
done
echo "public samples in $out: $(ls "$out"/doubango-*.jpg | wc -l) Doubango, $(ls "$out/nuaa/client" | wc -l) NUAA client, $(ls "$out/nuaa/imposter" | wc -l) NUAA imposter"
